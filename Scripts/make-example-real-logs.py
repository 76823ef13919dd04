#!/usr/bin/env python3
"""Write the example story (Examples/events.jsonl + Examples/accounts.json) in the real log formats.

Usage:  python3 Scripts/make-example-real-logs.py [--examples DIR] [--out DIR] [--key PEM]
        (defaults: Examples, Examples/real-logs, Scripts/example-apple-test-key.pem)

Writes into --out:
  identity-platform.jsonl   Identity Platform user-activity log entries (RequestLog in jsonPayload),
                            one LogEntry per line as a Cloud Storage sink writes them: sign-ups,
                            sign-ins, links and unlinks, deletions by the user
  audit-logs.json           Cloud Audit Log entries (AuditLog in protoPayload) as
                            `gcloud logging read --format=json` prints them (a 2-space indented JSON
                            array, newest first): the Admin SDK's deletions
  apple-notifications.jsonl Sign in with Apple server-to-server notification bodies, one per line
  apple-keys.json           the JWKS holding the public half of the test key that signed them
  backend.jsonl             the app backend's own JSON log: consents, revocations, deletion
                            requests, deletions by the system or after Apple's notice, erasure, mail
  subject-map.csv           only if some notification's Apple user id could not be joined otherwise
  CONVERSION.md             how each native event was expressed, and every place it is not exact

Every native event lands in exactly one record; each record keeps the event's id (insertId, jti,
request_id). A few records relaylint must skip are added (see CONVERSION.md). Reruns give
byte-identical files: the key is fixed and RS256 (PKCS#1 v1.5) signatures are deterministic.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realformats as rf  # noqa: E402

RELAY_DOMAINS = ("privaterelay.appleid.com", "private.icloud.com")
SINK_FILES = {
    "activity": "identity-platform.jsonl",
    "audit": "audit-logs.json",
    "apple": "apple-notifications.jsonl",
    "backend": "backend.jsonl",
}
# The order to pass the files to relaylint: see "Equal instants" in CONVERSION.md.
FILE_ORDER = ("backend", "activity", "audit", "apple")


def is_relay(addr):
    return addr.strip().rsplit("@", 1)[-1].lower() in RELAY_DOMAINS if addr else False


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load(examples):
    events, seen, duplicates = [], {}, []
    with open(os.path.join(examples, "events.jsonl"), encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            ev = json.loads(line)
            key = canonical(ev)
            if ev["id"] in seen:
                if seen[ev["id"]] != key:
                    sys.exit(f"events.jsonl:{line_no}: {ev['id']} repeated with other content")
                duplicates.append((ev["id"], line_no))
                continue
            seen[ev["id"]] = key
            events.append((line_no, ev))
    with open(os.path.join(examples, "accounts.json"), encoding="utf-8") as f:
        users = json.load(f)["users"]
    return events, duplicates, users


def apple_ids_from_events(events, users):
    """subject -> Apple user id named by a native event (value of an apple.com link/unlink);
    checked against the export's apple.com rawId."""
    export = {u["localId"]: p["rawId"] for u in users for p in u.get("providerUserInfo", [])
              if p.get("providerId") == "apple.com"}
    subs = {}
    for _, ev in events:
        if ev.get("provider") == "apple.com" and ev.get("value"):
            s = ev["subject"]
            if subs.setdefault(s, ev["value"]) != ev["value"]:
                sys.exit(f"{s}: two Apple user ids in the log")
            if s in export and export[s] != ev["value"]:
                sys.exit(f"{s}: log's Apple user id {ev['value']} is not the export's {export[s]}")
    return subs


def relay_addresses(events, users):
    relay = {}
    for _, ev in events:
        if ev.get("provider") == "apple.com" and is_relay(ev.get("email")):
            relay.setdefault(ev["subject"], ev["email"])
    for u in users:
        if is_relay(u.get("email")):
            relay[u["localId"]] = u["email"]
    return relay


def skipped_records(ctx, by_id):
    """Records relaylint must read and skip: (sink, anchor event id, before/after, record)."""
    cloud = ctx.cloud
    ns = lambda eid: rf.parse_time(by_id[eid]["time"])
    ua = lambda eid: ctx.user_agent(by_id[eid].get("app"), by_id[eid]["subject"])
    sec = rf.NS
    out = []
    # The app reloads the user right after an Apple sign-in (GetAccountInfo: a read).
    e = "evt-0012"
    out.append(("activity", e, "after", cloud.get_account_info(
        "1q7ztb3f2lk9w", ns(e) + 1_204_377_000, by_id[e]["subject"], ua(e), admin=False)))
    # A mistyped password 25 s before a successful sign-in: failed call, status code 3.
    e = "evt-0026"
    out.append(("activity", e, "before", cloud.failed_sign_in_password(
        "1e0xk4d9vrm2c", ns(e) - 25 * sec + 412_118_000, ua(e), "daniel.reyes@example.com")))
    # A password-reset mail requested before a later password sign-in (GetOobCode: not a change).
    e = "evt-0119"
    out.append(("activity", e, "before", cloud.get_oob_code(
        "1k3vq9w0c5hdx", ns(e) - 312 * sec + 87_004_000, ua(e), "grace.liu@example.org")))
    # Support looks the user up before the admin deletion (audit GetAccountInfo: a read).
    e = "evt-0104"
    out.append(("audit", e, "before", cloud.get_account_info(
        "-8h2mc4e1t6q", ns(e) - 97 * sec + 520_331_000, by_id[e]["subject"],
        rf.admin_user_agent(by_id[e].get("app")), admin=True)))
    # The `firebase auth:export` that wrote Examples/accounts.json (DownloadAccount: a read).
    out.append(("audit", None, "end", cloud.download_account(
        "-2wd7ke9m0c3r", rf.parse_time("2026-06-30T16:05:12.338104Z"),
        "FirebaseCLI/15.22.4,gzip(gfe)", "privacy@sparrownotes.example")))
    # Backend noise: the page that leads to in-app deletion, a session refresh.
    e = "evt-0097"
    t = rf.rfc3339(ns(e) - 41 * sec - 608_000_000, 3)
    out.append(("backend", e, "before", rf.backend_record(
        "req-5c1f0e9a7b2d", t, by_id[e]["subject"], by_id[e]["app"], "page_view",
        path="/settings/account/delete", referrer="/settings/account")))
    e = "evt-0052"
    t = rf.rfc3339(ns(e) + 3 * sec + 71_000_000, 3)
    out.append(("backend", e, "after", rf.backend_record(
        "req-9e4a2d7c0f13", t, by_id[e]["subject"], by_id[e]["app"], "session_refresh",
        ttl_s=3600)))
    return out


def order_constraints(records):
    """Same subject, same instant, different files: relaylint orders these by the order the files
    are given in. Return [(earlier event, its sink, later event, its sink)] by native line order."""
    groups = {}
    for sink, line_no, ev in records:
        groups.setdefault((ev["subject"], rf.parse_time(ev["time"])), []).append((line_no, sink, ev["id"]))
    pairs = []
    for items in groups.values():
        items.sort()
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                if items[i][1] != items[j][1]:
                    pairs.append((items[i][2], items[i][1], items[j][2], items[j][1]))
    return sorted(pairs)


NOTE_ORDER = [
    "UTC offset written as Z (same instant)",
    "epoch-ms time written as an RFC 3339 timestamp (same instant)",
    "fraction digits respelled the way Cloud Logging prints them (same instant)",
    "time written as event_time milliseconds (same instant)",
]


def conversion_md(counts, notes, duplicates, constraints, skipped, subject_map_rows, n_events):
    by_cat = {}
    for cat, eid in notes:
        by_cat.setdefault(cat, [])
        if eid not in by_cat[cat]:
            by_cat[cat].append(eid)
    cats = [c for c in NOTE_ORDER if c in by_cat] + sorted(c for c in by_cat if c not in NOTE_ORDER)
    L = []
    w = L.append
    w("# The example story in real log formats")
    w("")
    w("Written by `python3 Scripts/make-example-real-logs.py` from `Examples/events.jsonl` and")
    w("`Examples/accounts.json`; do not edit by hand. Each of the "
      f"{n_events} distinct native events is exactly one record, with its id as `insertId`, `jti` "
      "or `request_id`, and maps back (through the built-in mappings in `Mappings/`, Cloud Logging "
      "through their copy `cloud-logging-by-app.yml`; see "
      "[docs/inputs.md](../../docs/inputs.md#logs-as-google-cloud-and-apple-write-them)) to an event of the same instant, subject, "
      "type and app (but for the notifications' app), with the same rule-relevant fields. Check: "
      "`python3 Benchmarks/check_real_logs_generator.py --examples`.")
    w("")
    w("| file | format | records | of which skipped by relaylint |")
    w("|---|---|---|---|")
    for sink in FILE_ORDER:
        w(f"| `{SINK_FILES[sink]}` | {DESCRIBE[sink]} | {counts[sink]} | {skipped.get(sink, 0)} |")
    w("")
    w("Run: `relaylint check --accounts Examples/accounts.json --manifest Examples/manifest.yml "
      "--mapping Examples/real-logs/backend-mapping.yml --mapping Examples/real-logs/cloud-logging-by-app.yml "
      "--apple-keys Examples/real-logs/apple-keys.json " +
      " ".join(f"--events Examples/real-logs/{SINK_FILES[s]}" for s in FILE_ORDER) +
      "`. It gives the same findings as the native log "
      "(the README's 12; with the full pack, the same 26, messages and fingerprints included), "
      "pointing at these files.")
    w("")
    w("Backend records (`{ts, request_id, uid, app, action, ...}`) map, as `backend-mapping.yml` says: `consent_given`/"
      "`consent_withdrawn` + `purpose` `email_link|phone_link|social_link` → `consent.granted`/"
      "`consent.withdrawn` `scope` `link.email|link.phone|link.social`; `apple_token_revoked` + "
      "`result` `ok|error` → `token.revoked` `provider: apple.com` `status` `succeeded|failed`; "
      "`deletion_requested` + `via` → `account.deletion_requested` `channel`; `account_deleted` + "
      "`by` → `account.deleted` `initiator`; `data_erased` + `store` → `data.deleted`; `mail_sent` + "
      "`to`, `from` → `email.sent`; other actions are skipped.")
    w("")
    w("Where each native event went: account changes of users to the activity log (sign-ups:")
    w("SignUp, SignInWithIdp/SignInWithPhoneNumber with `isNewUser`; sign-ins; links of a provider")
    w("or phone: the sign-in call with the user's `idToken`; email links with a password provider:")
    w("SignInWithEmailLink with `idToken`; other email links: SetAccountInfo `email`; unlinks:")
    w("SetAccountInfo `deleteProvider`; deletions by the user: DeleteAccount); deletions by an admin")
    w("to the audit log (DeleteAccount); `apple.notification` to the notifications; consents,")
    w("revocations, deletion requests, deletions by `system` or `apple`, erasure and mail to the")
    w("backend log. Apple user ids: the export's apple.com `rawId`, else the value of an apple.com")
    w("link/unlink in the log, else invented (`001437.<32 hex>.1204`, stable per subject); every")
    w("Apple sign-up, sign-in and link carries it as `response.federatedId`, so every notification")
    w("is joined without a subject map" + (" except those in `subject-map.csv`." if subject_map_rows else "."))
    w("The story has two apps. The built-in mappings give Cloud Logging entries and notifications")
    w("no app, so Cloud Logging is read through `cloud-logging-by-app.yml`, the built-in mapping")
    w("with an app taken from the bundle id in the caller's user agent (README, \"Logs of several")
    w("apps\"). Admin SDK calls carry the app's bundle id in their user agent (`sparrow-backend")
    w("com.sparrownotes.app/4.2.1 Node/Admin/13.5.0`), as a backend that tags its requests would;")
    w("with the plain `Node/Admin/13.5.0` agent those deletions would have no app. A notification's")
    w("app is written as its `aud`, which relaylint does not read: notifications belong to the")
    w("default app, which changes no finding of the story.")
    w("")
    w("## Not exact (closest faithful expression)")
    w("")
    for d_id, line in duplicates:
        w(f"- **Duplicate line dropped:** line {line} repeats `{d_id}` exactly; Cloud Logging keeps "
          "one entry per `insertId`, so the activity log holds it once (the native run counts 1 "
          "duplicate, the real-format run 0).")
    for cat in cats:
        ids = ", ".join(sorted(i.replace("evt-", "") for i in by_cat[cat]))
        w(f"- **{cat[0].upper() + cat[1:]}:** {ids}.")
    w("- **Kept verbatim though unrealistic:** 0033's address `zq4m8d2k1p@PrivateRelay.AppleID.com ` "
      "(mixed case, trailing space) is written as `response.email` as it is; real responses are "
      "lower-case.")
    w("")
    w("Event numbers above drop the `evt-` prefix. Backend `ts` keep the native RFC 3339 spelling "
      "(offsets and fractions included). All added fields are what the mapping reads from the "
      "record (`value` from `federatedId` or `phoneNumber`, `provider: phone`, `status: succeeded`, "
      "the notification's relay `email`); none changes a finding.")
    w("")
    w("## Equal instants across files")
    w("")
    w("relaylint orders a subject's events with equal times by input order: the files in the order "
      "given, then line order. These pairs have the same subject and instant but sit in different "
      "files; the native log has the first one first:")
    w("")
    for a, sa, b, sb in constraints:
        w(f"- `{a}` ({SINK_FILES[sa]}) before `{b}` ({SINK_FILES[sb]})")
    w("")
    w("So pass `backend.jsonl` before `identity-platform.jsonl` (the order of the command above); in "
      "the other order A4's email link (0054) would precede its consent (0053) and fire.")
    w("")
    w("## Records relaylint must skip")
    w("")
    for sink, rid, what in SKIP_DESCRIPTIONS:
        w(f"- `{SINK_FILES[sink]}` `{rid}`: {what}")
    w("")
    w("File order: the JSON Lines files keep the native file's order (so its out-of-order lines stay "
      "out of order), skipped records next to the event they belong to; `audit-logs.json` is newest "
      "first, as `gcloud logging read` prints it.")
    return "\n".join(L) + "\n"


DESCRIBE = {
    "activity": "Cloud Logging entries, one per line (Cloud Storage sink)",
    "audit": "Cloud Logging entries, JSON array (`gcloud logging read --format=json`)",
    "apple": "Apple notification bodies `{\"payload\": JWS}`, one per line",
    "backend": "backend JSON Lines (user mapping)",
}
SKIP_DESCRIPTIONS = [
    ("activity", "1q7ztb3f2lk9w", "GetAccountInfo after an Apple sign-in: not an account change"),
    ("activity", "1e0xk4d9vrm2c", "SignInWithPassword that failed with status code 3 "
     "(INVALID_LOGIN_CREDENTIALS): failed call"),
    ("activity", "1k3vq9w0c5hdx", "GetOobCode (password reset mail): not an account change"),
    ("audit", "-8h2mc4e1t6q", "GetAccountInfo by the Admin SDK before a deletion: not an account change"),
    ("audit", "-2wd7ke9m0c3r", "DownloadAccount, the `firebase auth:export` of accounts.json: not an account change"),
    ("backend", "req-5c1f0e9a7b2d", "`page_view`: not a mapped action"),
    ("backend", "req-9e4a2d7c0f13", "`session_refresh`: not a mapped action"),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", default=os.path.join(root, "Examples"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--key", default=os.path.join(here, "example-apple-test-key.pem"))
    args = ap.parse_args()
    out = args.out or os.path.join(args.examples, "real-logs")
    os.makedirs(out, exist_ok=True)

    events, duplicates, users = load(args.examples)
    key = rf.load_private_key(args.key)
    ctx = rf.Context(users=users, apple_subs=apple_ids_from_events(events, users),
                     detail="full", private_key=key, relay_address=relay_addresses(events, users))
    by_id = {ev["id"]: ev for _, ev in events}

    records = {s: [] for s in SINK_FILES}           # sink -> [(line_no, sort key, record)]
    placed = []                                     # (sink, line_no, event)
    for line_no, ev in events:
        try:
            sink, rec = rf.convert_event(ev, ctx)
        except rf.Inexpressible as e:
            sys.exit(f"events.jsonl:{line_no}: cannot express: {e}")
        records[sink].append(((line_no, 0), rec))
        placed.append((sink, line_no, ev))
    line_of = {ev["id"]: line_no for line_no, ev in events}
    skipped = {}
    for sink, anchor, where, rec in skipped_records(ctx, by_id):
        pos = (line_of[anchor], -1 if where == "before" else 1) if anchor else (10 ** 9, 0)
        records[sink].append((pos, rec))
        skipped[sink] = skipped.get(sink, 0) + 1

    # Notifications must be joinable: export rawId, or an apple.com SignInWithIdp whose
    # federatedId is the sub (value of a mapped event); else subject-map.csv.
    joinable = {p["rawId"] for u in users for p in u.get("providerUserInfo", [])
                if p.get("providerId") == "apple.com"}
    for _, rec in records["activity"]:
        resp = rec["jsonPayload"].get("response", {})
        if resp.get("providerId") == "apple.com" and resp.get("federatedId"):
            joinable.add(resp["federatedId"])
    subject_map_rows = []
    for _, rec in records["apple"]:
        claims = rf.decode_jws(rec["payload"])[1]
        sub = json.loads(claims["events"])["sub"]
        if sub not in joinable:
            subject = next(s for s, a in ctx.apple_subs.items() if a == sub)
            subject_map_rows.append((sub, subject))

    for sink in records:
        records[sink].sort(key=lambda r: r[0])
    counts = {s: len(r) for s, r in records.items()}
    with open(os.path.join(out, SINK_FILES["activity"]), "w", encoding="utf-8", newline="\n") as f:
        for _, rec in records["activity"]:
            f.write(rf.sink_line(rec) + "\n")
    audit = [rec for _, rec in records["audit"]]
    audit.sort(key=lambda e: rf.parse_time(e["timestamp"]), reverse=True)   # gcloud: newest first
    with open(os.path.join(out, SINK_FILES["audit"]), "w", encoding="utf-8", newline="\n") as f:
        f.write(rf.gcloud_json(audit))
    with open(os.path.join(out, SINK_FILES["apple"]), "w", encoding="utf-8", newline="\n") as f:
        for _, rec in records["apple"]:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    with open(os.path.join(out, SINK_FILES["backend"]), "w", encoding="utf-8", newline="\n") as f:
        for _, rec in records["backend"]:
            f.write(rf.backend_line(rec) + "\n")
    with open(os.path.join(out, "apple-keys.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(rf.jwks_text(key.public_key()))
    map_path = os.path.join(out, "subject-map.csv")
    if subject_map_rows:
        with open(map_path, "w", encoding="utf-8", newline="\n") as f:
            f.write("apple_sub,subject\n")
            for sub, subject in sorted(subject_map_rows):
                f.write(f"{sub},{subject}\n")
    elif os.path.exists(map_path):
        os.remove(map_path)

    constraints = order_constraints(placed)
    rank = {s: i for i, s in enumerate(FILE_ORDER)}
    for a, sa, b, sb in constraints:
        if rank[sa] > rank[sb]:
            sys.exit(f"file order {FILE_ORDER} puts {b} before {a}")
    with open(os.path.join(out, "CONVERSION.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(conversion_md(counts, ctx.notes, duplicates, constraints, skipped,
                              subject_map_rows, len(events)))
    for sink in FILE_ORDER:
        print(f"{SINK_FILES[sink]}: {counts[sink]} records ({skipped.get(sink, 0)} to skip)")
    print(f"subject-map.csv: {'%d rows' % len(subject_map_rows) if subject_map_rows else 'not needed'}")


if __name__ == "__main__":
    main()
