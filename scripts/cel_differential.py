"""Generates CEL expressions over generated variables and evaluates them with the reference,
PyPI's common-expression-language (the Rust cel-interpreter's Python bindings), for
CELDifferentialTests. Prints one JSON object per line:

    {"expression": ..., "variables": {"user": ..., "device": ..., "params": ...},
     "present": true when only present fields are read, "result": tagged value or {"kind": "error"}}

Numbers in "variables" are written so JSON keeps their type: ints as integers, doubles always
with a fractional part (the runtime reads integral JSON numbers as CEL ints).

Run by .build/cel-venv/bin/python (scripts/cel-reference-venv makes it):
    cel_differential.py --count 1000 --seed 1
"""

import argparse
import json
import math
import random

import cel

FIELDS = {
    "user": {"age": "int", "score": "double", "plan": "string", "tags": "list", "beta": "bool", "visits": "int"},
    "device": {
        "daysSinceInstall": "int",
        "minutesSinceInstall": "int",
        "totalPaywallViews": "int",
        "ratio": "double",
        "deviceLanguageCode": "string",
        "subscriptionStatus": "string",
        "isSandbox": "bool",
    },
    "params": {"price": "double", "count": "int", "source": "string"},
}
WORDS = ["de", "en", "fr", "pro", "basic", "ACTIVE", "INACTIVE", "onboarding", "menu", "a", "b", ""]
MISSING = ["missing", "plan_name", "daysSince", "nothing"]


def variables(rng):
    def value(kind):
        if kind == "int":
            return rng.choice([0, 1, 2, 3, 7, 10, 30, 100, -5, rng.randint(-1000, 1000)])
        if kind == "double":
            # Never integral, so the JSON text keeps it a double.
            return rng.choice([0.5, 1.5, 2.25, -3.75, 99.99]) + rng.randint(-3, 3)
        if kind == "string":
            return rng.choice(WORDS)
        if kind == "bool":
            return rng.random() < 0.5
        return rng.sample(["a", "b", "c", "vip"], rng.randint(0, 3))

    return {scope: {name: value(kind) for name, kind in fields.items()} for scope, fields in FIELDS.items()}


class Generator:
    def __init__(self, rng, allow_missing):
        self.rng = rng
        self.allow_missing = allow_missing
        self.used_missing = False

    def field(self, kind):
        if self.allow_missing and self.rng.random() < 0.25:
            self.used_missing = True
            return f"{self.rng.choice(list(FIELDS))}.{self.rng.choice(MISSING)}"
        choices = [(scope, name) for scope, fields in FIELDS.items() for name, k in fields.items() if k == kind]
        scope, name = self.rng.choice(choices)
        return f"{scope}.{name}" if self.rng.random() < 0.8 else f"{scope}['{name}']"

    def number(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            return self.rng.choice(
                [
                    str(self.rng.randint(0, 50)),
                    f"{self.rng.randint(0, 20)}.5",
                    f"{self.rng.randint(0, 9)}u",
                    "0.25",
                    "1e2",
                    "9223372036854775807",
                ]
            )
        if r < 0.6:
            return self.field(self.rng.choice(["int", "int", "double"]))
        if r < 0.8:
            op = self.rng.choice(["+", "-", "*", "/", "%"])
            return f"({self.number(depth - 1)} {op} {self.number(depth - 1)})"
        if r < 0.9:
            f = self.rng.choice(["int", "double", "uint"])
            return f"{f}({self.number(depth - 1)})"
        if r < 0.95:
            return f"size({self.rng.choice([self.string(depth - 1), self.field('list')])})"
        return f"({self.boolean(depth - 1)} ? {self.number(depth - 1)} : {self.number(depth - 1)})"

    def string(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.4:
            return "'" + self.rng.choice(WORDS) + "'"
        if r < 0.8:
            return self.field("string")
        if r < 0.9:
            return f"({self.string(depth - 1)} + {self.string(depth - 1)})"
        return f"string({self.number(depth - 1)})"

    def boolean(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.1:
            return self.rng.choice(["true", "false", self.field("bool")])
        if r < 0.35:
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"{self.number(depth - 1)} {op} {self.number(depth - 1)}"
        if r < 0.5:
            op = self.rng.choice(["==", "!=", "<", ">"])
            return f"{self.string(depth - 1)} {op} {self.string(depth - 1)}"
        if r < 0.7:
            op = self.rng.choice(["&&", "||"])
            return f"({self.boolean(depth - 1)} {op} {self.boolean(depth - 1)})"
        if r < 0.75:
            # Parenthesized: the reference reads `!!a < b` as `!!(a < b)`, against CEL's grammar.
            return f"!({self.boolean(depth - 1)})"
        if r < 0.85:
            method = self.rng.choice(["contains", "startsWith", "endsWith"])
            return f"{self.string(depth - 1)}.{method}({self.string(depth - 1)})"
        if r < 0.88:
            return f"{self.string(depth - 1)}.matches('{self.rng.choice(['^d', 'e$', '[a-c]+', 'pro|basic', '^$', 'A.T'])}')"
        if r < 0.93:
            items = ", ".join(self.rng.choice([self.string(0), self.number(0)]) for _ in range(self.rng.randint(0, 3)))
            return f"{self.rng.choice([self.string(depth - 1), self.number(depth - 1)])} in [{items}]"
        if r < 0.96:
            return f"{self.string(0)} in {self.field('list')}"
        if r < 0.98:
            scope = self.rng.choice(list(FIELDS))
            name = self.rng.choice(list(FIELDS[scope]) + (MISSING if self.allow_missing else []))
            self.used_missing |= name in MISSING
            return f"has({scope}.{name})"
        a, b = self.rng.sample(["2020-01-01T00:00:00Z", "2024-02-29T12:30:00Z", "2020-01-01T01:00:00+01:00"], 2)
        op = self.rng.choice(["<", "==", ">="])
        if self.rng.random() < 0.5:
            return f"timestamp('{a}') {op} timestamp('{b}')"
        return f"duration('{self.rng.choice(['90m', '1h30m', '45s'])}') {op} duration('{self.rng.choice(['1h', '5400s', '1m'])}')"


def tagged(value):
    """The reference's value, tagged by kind (Python cannot tell int from uint: both "int")."""
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": str(value)}
    if isinstance(value, float):
        return {"kind": "double", "value": "nan" if math.isnan(value) else repr(value)}
    if isinstance(value, str):
        return {"kind": "string", "value": value}
    if isinstance(value, list):
        return {"kind": "list", "value": [tagged(item) for item in value]}
    if value is None:
        return {"kind": "null"}
    return {"kind": "other", "value": repr(value)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for index in range(args.count):
        # One case in eight may read fields that are missing (null safety); the rest read only present ones.
        generator = Generator(rng, allow_missing=index % 8 == 7)
        expression = generator.boolean(rng.randint(1, 4)) if rng.random() < 0.7 else generator.number(rng.randint(1, 3))
        context = variables(rng)
        try:
            result = tagged(cel.evaluate(expression, context))
        except Exception:  # the reference raises a Python exception for every CEL error
            result = {"kind": "error"}
        print(
            json.dumps(
                {
                    "expression": expression,
                    "variables": context,
                    "present": not generator.used_missing,
                    "result": result,
                }
            )
        )


if __name__ == "__main__":
    main()
