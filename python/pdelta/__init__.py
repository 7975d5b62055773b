"""pdelta: dimension views on Spark maintained from partial change data."""

__version__ = "0.1.0"
