"""cuPyNumeric tutorial: an image-preprocessing pipeline (normalize, standardize per
channel, flip a random half of the batch left-right with a boolean mask).

    python examples/tutorial/image_preprocessing.py [--batch B] [--size S] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def preprocess_images(images: Any, target_size: Any = (224, 224), flip_draws: Any = None) -> Any:
    """The standardized batch, every image whose draw is above 0.5 mirrored; ``flip_draws``
    are the uniform draws (one per image; drawn here when not given)."""
    normalized = images / 255.0

    mean = np.array([0.485, 0.456, 0.406])
    std = np.array([0.229, 0.224, 0.225])

    standardized = (normalized - mean) / std

    # augmentation: random horizontal flips
    draws = np.random.random(len(images)) if flip_draws is None else np.asarray(flip_draws)
    flip_mask = draws > 0.5
    standardized[flip_mask] = standardized[flip_mask, :, ::-1, :]

    return standardized


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=64, help="the tutorial uses 1000")
    parser.add_argument("--size", type=int, default=64, help="the tutorial uses 224")
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    fake_images = np.random.randint(0, 256, (args.batch, args.size, args.size, 3))
    processed_images = preprocess_images(fake_images)
    print(f"output shape: {processed_images.shape}")
    print(f"range: [{np.min(processed_images):.3f}, {np.max(processed_images):.3f}]")


if __name__ == "__main__":
    main()
