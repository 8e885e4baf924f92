"""Fails (exit 1) when a model of market_signals/models.py differs from the API's /openapi.json: its fields, its required fields.

Standard library only (the models are read with `ast`), so `npm run python:check` runs with any python3.
Usage: python3 check_models.py <openapi.json>
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

MODELS = Path(__file__).parent / "market_signals" / "models.py"


def read_models() -> dict[str, tuple[str, dict[str, bool]]]:
    """Each model class: its schema name and its fields (name -> required), inherited ones included."""
    classes: dict[str, tuple[str | None, dict[str, bool], list[str]]] = {}
    for node in ast.parse(MODELS.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.ClassDef):
            continue
        schema, fields = None, {}
        for item in node.body:
            if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__schema__" for t in item.targets):
                schema = ast.literal_eval(item.value)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and "ClassVar" not in ast.unparse(item.annotation):
                fields[item.target.id] = item.value is None
        classes[node.name] = (schema, fields, [ast.unparse(base) for base in node.bases])

    def all_fields(name: str) -> dict[str, bool]:
        schema, fields, bases = classes[name]
        inherited: dict[str, bool] = {}
        for base in bases:
            if base in classes:
                inherited.update(all_fields(base))
        return {**inherited, **fields}

    return {name: (schema, all_fields(name)) for name, (schema, _, _) in classes.items() if schema}


def main(path: str) -> int:
    schemas = json.loads(Path(path).read_text(encoding="utf-8"))["components"]["schemas"]
    problems: list[str] = []
    for name, (schema_name, fields) in read_models().items():
        schema = schemas.get(schema_name)
        if schema is None:
            problems.append(f"{name}: no schema {schema_name} in the document")
            continue
        documented, required = set(schema.get("properties", {})), set(schema.get("required", []))
        if set(fields) != documented:
            problems.append(f"{name}: fields {sorted(set(fields) ^ documented)} differ from {schema_name}'s properties")
        mandatory = {field for field, needed in fields.items() if needed}
        if not mandatory <= required or not required <= set(fields):
            problems.append(f"{name}: {schema_name} requires {sorted(required)}, the model {sorted(mandatory)}")
    for line in problems:
        print(f"stale Python client: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
