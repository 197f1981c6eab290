"""Shared pytest fixtures for PointPaint's Python cross-checks."""
import os
import pathlib

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    """The repository root."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def pointpaint_bin() -> str:
    """Path of the pointpaint executable: $POINTPAINT_BIN, default .build/debug/pointpaint."""
    path = pathlib.Path(os.environ.get("POINTPAINT_BIN", REPO_ROOT / ".build" / "debug" / "pointpaint"))
    if not path.is_absolute():
        path = REPO_ROOT / path
    if not path.exists():
        pytest.fail(f"pointpaint binary not found at {path}; build it or set POINTPAINT_BIN")
    return str(path)


@pytest.fixture(scope="session")
def photo(tmp_path_factory):
    """A photo-like test image (PNG), made once for the frame and sample cross-checks."""
    from test_frame_ffmpeg import make_photo

    path = tmp_path_factory.mktemp("photo") / "photo.png"
    make_photo(path)
    return path
