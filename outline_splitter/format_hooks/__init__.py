"""What a format adds to the splitter beyond its detector: the `FormatHooks` rows of
`registry.FORMATS` point here (HTML's views, CSS selectors and content choice in
`html.py`; JSON's and YAML's view of their punctuation in `data.py`).

Unlike a detector, a hook may use the packer's views and the tokenizers: it is part of
the splitter, imported on first use of its format, while `detectors/` depends on the
node model alone."""
