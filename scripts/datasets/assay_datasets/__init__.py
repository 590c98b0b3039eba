"""Generators for the assay sample benchmark (see datasets/README.md)."""
