"""Variants by name or by spec, and the table's own named specs (family specials, C2).

:func:`variant_spec` turns whatever ``Rules(variant=...)`` is given (a name, a spec, a
spec dict) into a checked spec; :func:`register_variant`, :func:`load_variant` and
:func:`save_variant` keep and store a family special under its name.

>>> variant_spec({"private_cards": 4}).private_cards
4
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from teenpatti_env.nesting import check_nesting
from teenpatti_env.rules.variant_catalogue import PRESET_NAMES, VARIANTS
from teenpatti_env.rules.variant_spec import VariantSpec, check_spec

FAMILY_SPECIALS: dict[str, VariantSpec] = {}
"""The table's own named specs ([002] "Family Special", C2), added by
:func:`register_variant` or :func:`load_variant`: selectable by name wherever a variant
name is accepted, in this process."""


def variant_spec(value: str | VariantSpec | Mapping[str, Any]) -> VariantSpec:
    """The spec of a variant name (built-in or registered), a spec, or a spec dict
    (optionally ``{"name", "spec"}``)."""
    if isinstance(value, str):
        spec = VARIANTS.get(value) or FAMILY_SPECIALS.get(value)
        if spec is None:
            known = [*VARIANTS, *FAMILY_SPECIALS]
            raise ValueError(
                f"unknown variant {value!r}: allowed {', '.join(known)} or a spec dict"
            )
        return spec
    if isinstance(value, VariantSpec):
        spec = value
        check_spec(spec)
    elif isinstance(value, Mapping):
        if "spec" in value:
            extra = sorted(set(value) - {"name", "spec"})
            if extra:
                raise ValueError(f"a named spec has only 'name' and 'spec', got {extra}")
            name = value.get("name")
            _check_name_type(name)
            spec = VariantSpec.from_dict(value["spec"], name=name)
        else:
            _check_name_type(value.get("name"))
            spec = VariantSpec.from_dict(value)
    else:
        raise ValueError(f"a variant is a name, a VariantSpec or a dict, got {value!r}")
    _check_name_type(spec.name)
    if spec.name in VARIANTS and VARIANTS[spec.name] != spec:
        raise ValueError(f"{spec.name!r} is the name of a built-in variant")
    return spec


def register_variant(spec: VariantSpec | Mapping[str, Any]) -> VariantSpec:
    """Make a named spec selectable by its name (C2); returns the checked spec.

    Registering the same spec again is allowed; another spec under a registered name, a
    built-in variant's name or an unnamed spec is a ``ValueError``.
    """
    checked = variant_spec(spec)
    name = checked.name
    if not name:
        raise ValueError("a family special needs a name")
    if name in VARIANTS:
        raise ValueError(f"{name!r} is the name of a built-in variant")
    if name in PRESET_NAMES:
        raise ValueError(f"{name!r} is the name of a preset; name the variant otherwise")
    if FAMILY_SPECIALS.get(name, checked) != checked:
        raise ValueError(f"another variant is already registered as {name!r}")
    FAMILY_SPECIALS[name] = checked
    return checked


def load_variant(path: str | Path, register: bool = True) -> VariantSpec:
    """Read a family special from JSON or TOML (``{"name": ..., "spec": {...}}``; TOML with
    the same keys, a component left out for its default since TOML has no null), check
    it, and register it under its name unless ``register=False``."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read {str(path)!r}: {error.strerror or error}") from None
    try:
        if path.suffix.lower() == ".toml":
            data: Any = tomllib.loads(raw.decode("utf-8"))
        elif path.suffix.lower() == ".json":
            data = json.loads(raw)
        else:
            raise ValueError("a variant file ends in .json or .toml")
    except (UnicodeDecodeError, json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{str(path)!r} is not valid {path.suffix[1:].upper()}: {error}") from None
    except ValueError as error:
        raise ValueError(f"{str(path)!r}: {error}") from None
    except RecursionError:
        raise ValueError(f"{str(path)!r} is nested too deeply to read") from None
    check_nesting(data, repr(str(path)))
    if not isinstance(data, Mapping) or set(data) != {"name", "spec"}:
        raise ValueError(f"{str(path)!r} must hold exactly 'name' and 'spec'")
    try:
        spec = variant_spec(data)
        if not spec.name:
            raise ValueError("a family special needs a name")
        return register_variant(spec) if register else spec
    except ValueError as error:
        raise ValueError(f"{str(path)!r}: {error}") from None


def save_variant(spec: VariantSpec | Mapping[str, Any], path: str | Path) -> Path:
    """Write a named spec as JSON ``{"name": ..., "spec": {...}}`` (C2)."""
    checked = variant_spec(spec)
    if not checked.name:
        raise ValueError("a family special needs a name")
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise ValueError(f"family specials are saved as .json, got {str(path)!r}")
    data = {"name": checked.name, "spec": checked.to_dict()}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def _check_name_type(name: Any) -> None:
    if name is not None and not isinstance(name, str):
        raise ValueError(f"a variant name is a string, got {name!r}")


def variant_to_json(spec: VariantSpec) -> Any:
    """A built-in variant as its name, any other as ``{"name", "spec"}`` (C2)."""
    if spec.name in VARIANTS and VARIANTS[spec.name] == spec:
        return spec.name
    return {"name": spec.name, "spec": spec.to_dict()}
