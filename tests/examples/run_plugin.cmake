# Runs the plug-in example's experiment and an audit of the plug-in with the example's own executable.
#   cmake -DCLI=... -DSOURCE_DIR=... -DWORK_DIR=... -P run_plugin.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CLI} run ${SOURCE_DIR}/examples/plugin_algorithm/experiment.yaml --out ${WORK_DIR}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0 OR NOT out MATCHES "PASS +rate liu2022.eq3 example.noisy_second_moment_pca")
  message(FATAL_ERROR "the plug-in's run did not pass its check (exit ${code}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${CLI} audit example.noisy_second_moment_pca --epsilon 1 --delta 1e-5 --n 200 --d 5
                        --trials 500
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0 OR NOT out MATCHES "^PASS")
  message(FATAL_ERROR "the plug-in's audit did not pass (exit ${code}):\n${out}\n${err}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
