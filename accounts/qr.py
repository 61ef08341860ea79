"""QR codes made on the server (segno: pure Python, no network), as inline SVG."""

from __future__ import annotations

import segno


def svg(data: str, scale: int = 6) -> str:
    # Error correction "M" survives a smudged printout; the quiet zone is segno's default.
    return segno.make(data, error="m").svg_inline(scale=scale, dark="#000", light="#fff")
