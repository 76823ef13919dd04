#!/usr/bin/env python3
"""Copies a set of Benchmarks/generate.py into one whose partitioned run can be compared with a
single run byte for byte, by taking out the two things the README says a partitioned run cannot
see as one run does ("Partitioned runs"):

- event ids used by two subjects: generate.py's ids collide (its base-36 digits pad with "0",
  its digit 26, so events 1 and 937 are both e00000b), about 1% of them; each later subject of
  an id gets the id with its subject appended;
- more than 200 uses of look-alike relay addresses, the cap of one run's notes (each partition
  caps its own): the first addresses at privaterelay.apple.id.com stay while their uses number
  at most 150, the others become iCloud addresses, in the log and in the export alike.

Usage: fit_generated.py SOURCE-DIR TARGET-DIR   (events.jsonl, accounts.json, manifest.yml)
"""

import json
import os
import re
import shutil
import sys

LOOK_ALIKE = re.compile(r"([A-Za-z0-9._%+-]+)@privaterelay\.apple\.id\.com")
KEPT_USES = 150


def main(source, target):
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(source, "events.jsonl"), encoding="utf-8", newline="") as handle:
        lines = handle.readlines()
    with open(os.path.join(source, "accounts.json"), encoding="utf-8", newline="") as handle:
        accounts = handle.read()
    # One run notes each use of a look-alike address: keep the first addresses of the log while
    # their uses, in the log and the export, stay within KEPT_USES.
    uses = {}
    for text in lines + [accounts]:
        for match in LOOK_ALIKE.finditer(text):
            uses[match.group(0)] = uses.get(match.group(0), 0) + 1
    kept, total = set(), 0
    for address, count in uses.items():
        if total + count > KEPT_USES:
            break
        kept.add(address)
        total += count

    def fit(text):
        return LOOK_ALIKE.sub(lambda m: m.group(0) if m.group(0) in kept else m.group(1) + "@icloud.com", text)

    owner, renamed = {}, 0
    with open(os.path.join(target, "events.jsonl"), "w", encoding="utf-8", newline="") as handle:
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                event = None
            if isinstance(event, dict) and isinstance(event.get("id"), str) and isinstance(event.get("subject"), str):
                if owner.setdefault(event["id"], event["subject"]) != event["subject"]:
                    line = line.replace(json.dumps(event["id"]), json.dumps(event["id"] + "." + event["subject"]), 1)
                    renamed += 1
            handle.write(fit(line))
    with open(os.path.join(target, "accounts.json"), "w", encoding="utf-8", newline="") as handle:
        handle.write(fit(accounts))
    shutil.copyfile(os.path.join(source, "manifest.yml"), os.path.join(target, "manifest.yml"))
    print(f"  {renamed} events given an id of their own; {len(kept)} look-alike addresses kept ({total} uses), "
          f"{len(uses) - len(kept)} made iCloud's")


if __name__ == "__main__":
    main(*sys.argv[1:3])
