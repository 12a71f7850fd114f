"""The examples in the package's docstrings run and print what they show (doctest), so help() never
teaches something that no longer works."""
import doctest

import numpy as np

import dpbounds


def test_the_docstring_examples_run():
    failures, tried = doctest.testmod(dpbounds, extraglobs={"dpbounds": dpbounds, "np": np},
                                      optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried >= 7 and failures == 0
