"""Pure ``Expr -> Expr`` rewrites run before lowering (``pipeline.run_passes``)."""
