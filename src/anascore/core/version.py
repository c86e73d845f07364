"""The version of anascore, recorded in every result's signature."""

__version__ = "0.1.0"
