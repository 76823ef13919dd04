#!/usr/bin/env python3
"""Validate SARIF files against the OASIS SARIF 2.1.0 schema and GitHub code scanning's limits.

Usage: python3 Scripts/validate-sarif.py FILE.sarif [FILE.sarif ...] [--schema PATH]

The schema is Scripts/schemas/sarif-schema-2.1.0.json (OASIS's published SARIF 2.1.0 schema,
kept in the repository), unless --schema names another file. Needs the
`jsonschema` package (pip install jsonschema). Exit code 0: every file is valid; 1: a file is
invalid; 2: bad usage, or a file or the schema cannot be read.

Beyond the schema, `uri` and `uri-reference` values are checked to be RFC 3986 references
(jsonschema checks those formats only when optional packages are installed), and GitHub code
scanning's hard limits are checked: runs per file, results and rules per run, locations per
result, tags per rule.
"""

import argparse
import json
import re
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
DEFAULT_SCHEMA = REPOSITORY / "Scripts" / "schemas" / "sarif-schema-2.1.0.json"

# RFC 3986: characters a URI may hold, and escapes that are complete.
URI_CHARACTERS = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")

# GitHub code scanning rejects files over these (docs: "SARIF results exceed one or more limits").
MAX_RUNS = 20
MAX_RESULTS_PER_RUN = 25_000
MAX_RULES_PER_RUN = 25_000
MAX_LOCATIONS_PER_RESULT = 1_000
MAX_TAGS_PER_RULE = 20


def format_checker(jsonschema):
    checker = jsonschema.FormatChecker()

    @checker.checks("uri")
    def is_uri(value):
        return not isinstance(value, str) or (bool(SCHEME.match(value)) and bool(URI_CHARACTERS.match(value)))

    @checker.checks("uri-reference")
    def is_uri_reference(value):
        if not isinstance(value, str):
            return True
        if not URI_CHARACTERS.match(value):
            return False
        # A relative reference whose first segment holds ":" would read as a scheme.
        first_segment = value.split("/", 1)[0]
        return ":" not in first_segment or bool(SCHEME.match(value))

    return checker


def limit_errors(log):
    errors = []
    runs = log.get("runs") or []
    if len(runs) > MAX_RUNS:
        errors.append(f"{len(runs)} runs; code scanning accepts at most {MAX_RUNS}")
    for run_index, run in enumerate(runs):
        results = run.get("results") or []
        rules = ((run.get("tool") or {}).get("driver") or {}).get("rules") or []
        if len(results) > MAX_RESULTS_PER_RUN:
            errors.append(f"runs[{run_index}]: {len(results)} results; code scanning accepts at most {MAX_RESULTS_PER_RUN}")
        if len(rules) > MAX_RULES_PER_RUN:
            errors.append(f"runs[{run_index}]: {len(rules)} rules; code scanning accepts at most {MAX_RULES_PER_RUN}")
        for rule_index, rule in enumerate(rules):
            tags = (rule.get("properties") or {}).get("tags") or []
            if len(tags) > MAX_TAGS_PER_RULE:
                errors.append(f"runs[{run_index}].tool.driver.rules[{rule_index}]: {len(tags)} tags; at most {MAX_TAGS_PER_RULE}")
        for result_index, result in enumerate(results):
            locations = len(result.get("locations") or []) + len(result.get("relatedLocations") or [])
            if locations > MAX_LOCATIONS_PER_RESULT:
                errors.append(f"runs[{run_index}].results[{result_index}]: {locations} locations; at most {MAX_LOCATIONS_PER_RESULT}")
    return errors


def main():
    parser = argparse.ArgumentParser(description="Validate SARIF files against the SARIF 2.1.0 schema.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="SARIF file to validate")
    parser.add_argument("--schema", default=str(DEFAULT_SCHEMA), help=f"schema file (default: {DEFAULT_SCHEMA})")
    arguments = parser.parse_args()

    try:
        import jsonschema
    except ImportError:
        print("validate-sarif: the jsonschema package is missing: python3 -m pip install jsonschema", file=sys.stderr)
        return 2
    try:
        with open(arguments.schema, encoding="utf-8") as handle:
            schema = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"{arguments.schema}: error: cannot read the SARIF schema: {error}", file=sys.stderr)
        return 2

    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=format_checker(jsonschema))

    status = 0
    for path in arguments.files:
        try:
            with open(path, encoding="utf-8") as handle:
                log = json.load(handle)
        except (OSError, ValueError) as error:
            print(f"{path}: error: cannot read: {error}", file=sys.stderr)
            return 2
        errors = [
            f"{'/'.join(str(part) for part in error.absolute_path) or '(root)'}: {error.message}"
            for error in sorted(validator.iter_errors(log), key=lambda error: list(map(str, error.absolute_path)))
        ]
        errors += limit_errors(log)
        if errors:
            status = 1
            for message in errors:
                print(f"{path}: error: {message}")
            print(f"{path}: invalid ({len(errors)} problem{'s' if len(errors) != 1 else ''})")
        else:
            results = sum(len(run.get("results") or []) for run in log.get("runs") or [])
            print(f"{path}: valid SARIF 2.1.0 ({results} result{'s' if results != 1 else ''})")
    return status


if __name__ == "__main__":
    sys.exit(main())
