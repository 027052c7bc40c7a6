"""The GPU check: everything needed to run the project on a bare, offline GPU machine.

``bash gpu/build-wheelhouse`` (here, with PyPI) downloads the wheels the GPU image lacks
into ``.whl/``; ``bash gpu/check`` (there, with ``.whl`` carried) installs them offline and
runs the GPU tests, the suite on CuPy chunks, the examples and the warm benchmark at real
sizes (``benchmarks/device``), and writes one report; ``bash gpu/check --dry-run`` does all of it that needs no
device, in CI. docs/gpu.md says how to use them.

Modules: ``lists`` (the committed lists: pins, the image's packages, what is not carried),
``wheelhouse`` (download, prune, sizes; the CLI behind build-wheelhouse), ``requirement_coverage``
(every requirement is carried, on the image or excused), ``runner`` (a command with a
time budget), ``junit`` (pytest's XML), ``report`` (Markdown + JSON, merge), ``phases``
(what each phase runs), ``probes`` (imports and device, run in the checked interpreter),
``check`` (the CLI behind gpu/check). Only ``wheelhouse`` and ``requirement_coverage`` need more than
the standard library (``packaging``).
"""
