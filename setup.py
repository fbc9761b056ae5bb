"""The compiled timing core of the simulator, built with the machine's C compiler."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("ktc.sim._core", ["sim/_core.c"], extra_compile_args=["-O2"])])
