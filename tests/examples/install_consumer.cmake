# Builds examples/plugin_algorithm the way a researcher would: against an installed dpbounds.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DPYTHON=interpreter -DPYTHON_DIR=site-packages under the prefix] -P install_consumer.cmake
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/plugin_algorithm -B ${WORK_DIR}/build
     -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
execute_process(COMMAND ${WORK_DIR}/build/my-dpbounds list algorithms OUTPUT_VARIABLE ids RESULT_VARIABLE code)
if(NOT code EQUAL 0 OR NOT ids MATCHES "example.noisy_second_moment_pca")
  message(FATAL_ERROR "the installed build does not list the plug-in algorithm:\n${ids}")
endif()
if(PYTHON)  # the Python package installed under the prefix imports and runs
  step(${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_DIR} ${PYTHON} -c
       "import dpbounds, numpy; assert dpbounds.__file__.startswith('${WORK_DIR}/prefix'), dpbounds.__file__; \
assert dpbounds.run('baseline.dp_gauss_1', numpy.ones((50, 3)), params={'beta': 2.0}).Q.shape == (3, 1)")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
