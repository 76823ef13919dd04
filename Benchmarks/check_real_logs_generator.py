#!/usr/bin/env python3
"""Self-check of the real-format data: map the real-format files back to relaylint events with an
independent implementation of the three mappings the real-format runs read them with
(docs/mapping-language.md): the built-in apple-notifications; Examples/real-logs/cloud-logging-by-app.yml,
the built-in Cloud Logging mapping with an app taken from the user agent; and the backend user mapping.
It compares them with the native events.jsonl.

Usage:
  python3 Benchmarks/check_real_logs_generator.py                  generate a small set (200
                         subjects, seeds 1 and 7, lean and padded) into a temp dir, check each
  python3 Benchmarks/check_real_logs_generator.py --dir DIR         check an existing generated set
  python3 Benchmarks/check_real_logs_generator.py --examples [Examples]
                         check Examples/real-logs against Examples/events.jsonl, allowing only the
                         documented kinds of difference (Examples/real-logs/CONVERSION.md)

A generated set must map to exactly the native events, as sets of
(id, time instant, subject, type, app, other fields). Notification signatures are verified with
apple-keys.json. This file shares no code with the generators on purpose.
"""

import argparse
import base64
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESERVED = ("id", "time", "subject", "type", "app")

# ------------------------------------------------------------------------------------- time

_T = re.compile(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d\d):(\d\d))")


def instant(t):
    """Nanoseconds since 1970 of an RFC 3339 string or an epoch-ms number."""
    if isinstance(t, (int, float)) and not isinstance(t, bool):
        return int(Decimal(str(t)) * 1_000_000)
    m = _T.fullmatch(t)
    if not m:
        raise ValueError(f"bad time {t!r}")
    y, mo, d, h, mi, s, frac, sign, oh, om = m.groups()
    dt = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), tzinfo=datetime.timezone.utc)
    ns = int(dt.timestamp()) * 10 ** 9 + int((frac or "0").ljust(9, "0"))
    if sign:
        ns -= (1 if sign == "+" else -1) * (int(oh) * 3600 + int(om) * 60) * 10 ** 9
    return ns


# ------------------------------------------------------------------- Cloud Logging → events

_BUNDLE = re.compile(r"[a-z][a-z0-9-]*(?:\.[a-z0-9-]+){2,}/[0-9]")


def app_from_agent(ua):
    for token in (ua or "").split():
        if _BUNDLE.match(token):
            return token.split("/", 1)[0]
    return None


SIGN_IN_PROVIDER = {"SignInWithPassword": "password", "SignInWithEmailLink": "password",
                    "SignInWithPhoneNumber": "phone", "SignInWithGameCenter": "gc.apple.com"}


def map_cloud(entry, skipped):
    payload = entry.get("jsonPayload") or entry.get("protoPayload")
    method = payload["methodName"].rsplit(".", 1)[-1]
    code = (payload.get("status") or {}).get("code")
    if code not in (None, 0):
        skipped.append(("failed call", method))
        return []
    req, resp = payload.get("request") or {}, payload.get("response") or {}
    audit = (entry.get("protoPayload") or {}).get("@type") == "type.googleapis.com/google.cloud.audit.AuditLog"
    subject = resp.get("localId", req.get("localId"))
    out = []                                    # (type, fields, subject)

    if method == "SignUp":
        f = {"provider": "password" if ("email" in req or "email" in resp) else "anonymous"}
        if "email" in resp:
            f["email"] = resp["email"]
        out.append(("account.created", f, subject))
    elif method == "SignInWithIdp" or method in SIGN_IN_PROVIDER:
        provider = SIGN_IN_PROVIDER.get(method, resp.get("providerId"))
        if resp.get("isNewUser") is True:
            typ = "account.created"
        elif "idToken" in req:
            typ = "identity.linked"
        else:
            typ = "signin"
        f = {"provider": provider}
        if "email" in resp:
            f["email"] = resp["email"]
        if "federatedId" in resp:
            f["value"] = resp["federatedId"]
        elif provider == "phone" and "phoneNumber" in resp:
            f["value"] = resp["phoneNumber"]
        if typ == "identity.linked":
            f["kind"] = {"password": "email", "phone": "phone"}.get(provider, "provider")
        if "rawUserInfo" in resp:
            raw = json.loads(resp["rawUserInfo"])
            if isinstance(raw, dict) and "is_private_email" in raw:
                f["is_private_email"] = raw["is_private_email"]
        out.append((typ, f, subject))
    elif method == "SetAccountInfo":
        for p in req.get("deleteProvider", []):
            out.append(("identity.unlinked",
                        {"provider": p, "kind": {"phone": "phone", "password": "email"}.get(p, "provider")}, subject))
        for info in req.get("linkProviderUserInfo", []):
            f = {"kind": "provider", "provider": info["providerId"]}
            if "email" in info:
                f["email"] = info["email"]
            if "rawId" in info:
                f["value"] = info["rawId"]
            out.append(("identity.linked", f, subject))
        if req.get("email"):
            out.append(("identity.linked", {"kind": "email", "value": req["email"]}, subject))
        if req.get("phoneNumber"):
            out.append(("identity.linked", {"kind": "phone", "value": req["phoneNumber"]}, subject))
    elif method == "DeleteAccount":
        out.append(("account.deleted", {"initiator": "admin" if audit else "user"}, subject))
    elif method == "BatchDeleteAccounts":
        for uid in req.get("localIds", []):
            out.append(("account.deleted", {"initiator": "admin"}, uid))
    else:
        skipped.append(("not an account change", method))
        return []
    if not out:
        skipped.append(("not an account change", method))
        return []
    app = app_from_agent(payload.get("requestMetadata", {}).get("callerSuppliedUserAgent"))
    events = []
    for k, (typ, fields, subj) in enumerate(out, 1):
        if subj is None:
            skipped.append(("no subject", method))
            continue
        ev = {"id": entry["insertId"] + (f"#{k}" if len(out) > 1 else ""), "time": entry["timestamp"],
              "subject": subj, "type": typ}
        if app:
            ev["app"] = app
        ev.update(fields)
        events.append(ev)
    return events


def read_cloud(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ------------------------------------------------------------------------- backend → events

def map_backend(rec, skipped):
    a = rec.get("action")
    if a in ("consent_given", "consent_withdrawn"):
        scope = {"email_link": "link.email", "phone_link": "link.phone", "social_link": "link.social"}[rec["purpose"]]
        typ, f = ("consent.granted" if a == "consent_given" else "consent.withdrawn"), {"scope": scope}
    elif a == "apple_token_revoked":
        typ, f = "token.revoked", {"provider": "apple.com",
                                   "status": {"ok": "succeeded", "error": "failed"}[rec["result"]]}
    elif a == "deletion_requested":
        typ, f = "account.deletion_requested", {"channel": rec["via"]}
    elif a == "account_deleted":
        typ, f = "account.deleted", {"initiator": rec["by"]}
    elif a == "data_erased":
        typ, f = "data.deleted", {"store": rec["store"]}
    elif a == "mail_sent":
        typ, f = "email.sent", {"to": rec["to"], "from": rec["from"]}
    else:
        skipped.append(("not a mapped action", a))
        return []
    ev = {"id": rec["request_id"], "time": rec["ts"], "subject": rec["uid"], "type": typ}
    if rec.get("app"):
        ev["app"] = rec["app"]
    ev.update(f)
    return [ev]


# --------------------------------------------------------------------------- Apple → events

def _b64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def load_jwks(path):
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicNumbers
    keys = {}
    with open(path) as f:
        for k in json.load(f)["keys"]:
            n, e = (int.from_bytes(_b64(k[x]), "big") for x in ("n", "e"))
            keys[k["kid"]] = RSAPublicNumbers(e, n).public_key()
    return keys


def verify_jws(token, keys):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    h, c, s = token.split(".")
    header = json.loads(_b64(h))
    assert header["alg"] == "RS256", header
    keys[header["kid"]].verify(_b64(s), f"{h}.{c}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return json.loads(_b64(c))


def map_apple(body, keys, apple_index, skipped):
    claims = verify_jws(body["payload"], keys)
    assert claims["iss"] == "https://appleid.apple.com" and claims["exp"] == claims["iat"] + 86400
    ev_ = json.loads(claims["events"]) if isinstance(claims["events"], str) else claims["events"]
    subject = apple_index.get(ev_["sub"])
    if subject is None:
        skipped.append(("no account for the Apple user id", ev_["type"]))
        return []
    t = ev_["event_time"]
    ev = {"id": claims["jti"], "time": t if t >= 10 ** 11 else t * 1000, "subject": subject,
          "type": "apple.notification", "event": ev_["type"]}
    for k in ("email", "is_private_email"):
        if k in ev_:
            ev[k] = ev_[k]
    return [ev]


# ------------------------------------------------------------------------------ the whole set

def map_dir(d, accounts_path):
    skipped = {}
    events = []
    for name in ("identity-platform.jsonl", "audit-logs.json"):
        sk = skipped.setdefault(name, [])
        for entry in read_cloud(os.path.join(d, name)):
            events += map_cloud(entry, sk)
    sk = skipped.setdefault("backend.jsonl", [])
    with open(os.path.join(d, "backend.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                events += map_backend(json.loads(line), sk)
    index = {}
    with open(accounts_path, encoding="utf-8") as f:
        for u in json.load(f)["users"]:
            for p in u.get("providerUserInfo", []):
                if p.get("providerId") == "apple.com":
                    for k in ("rawId", "federatedId"):
                        if p.get(k):
                            index[p[k]] = u["localId"]
    for ev in events:
        if ev.get("provider") == "apple.com" and ev.get("value"):
            index.setdefault(ev["value"], ev["subject"])
    map_path = os.path.join(d, "subject-map.csv")
    if os.path.exists(map_path):
        with open(map_path, newline="") as f:
            for i, row in enumerate(csv.reader(f)):
                if i == 0 and row == ["apple_sub", "subject"]:
                    continue
                index[row[0]] = row[1]
    keys = load_jwks(os.path.join(d, "apple-keys.json"))
    sk = skipped.setdefault("apple-notifications.jsonl", [])
    n_apple = 0
    with open(os.path.join(d, "apple-notifications.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                n_apple += 1
                events += map_apple(json.loads(line), keys, index, sk)
    return events, skipped, n_apple


def key(ev):
    fields = tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in ev.items() if k not in RESERVED))
    return (ev["id"], instant(ev["time"]), ev["subject"], ev["type"], ev.get("app"), fields)


def read_native(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summary(skipped, n_mapped, n_apple):
    parts = []
    for name, items in skipped.items():
        reasons = {}
        for reason, detail in items:
            reasons[f"{reason} ({detail})"] = reasons.get(f"{reason} ({detail})", 0) + 1
        if reasons:
            parts.append(f"  {name}: skipped " + ", ".join(f"{v} {k}" for k, v in sorted(reasons.items())))
    return f"  {n_mapped} events mapped; {n_apple} notifications verified\n" + "\n".join(parts)


def check_generated(d):
    mapped, skipped, n_apple = map_dir(d, os.path.join(d, "accounts.json"))
    native = read_native(os.path.join(d, "events.jsonl"))
    ids = [e["id"] for e in native]
    assert len(ids) == len(set(ids)), "native ids are not unique"
    mids = [e["id"] for e in mapped]
    assert len(mids) == len(set(mids)), "mapped ids are not unique"
    a, b = set(map(key, native)), set(map(key, mapped))
    if a != b:
        for k in sorted(a - b)[:10]:
            print("  only native:", k)
        for k in sorted(b - a)[:10]:
            print("  only mapped:", k)
        raise SystemExit(f"FAIL {d}: {len(a - b)} native events not mapped back, {len(b - a)} extra")
    # every skipped kind the generator promises shows up
    kinds = {r for items in skipped.values() for r, _ in items}
    for want in ("failed call", "not an account change", "not a mapped action", "no account for the Apple user id"):
        assert want in kinds, f"no record skipped as {want!r}"
    # subject-level sanity: the export lists no deleted subject
    with open(os.path.join(d, "accounts.json"), encoding="utf-8") as f:
        exported = {u["localId"] for u in json.load(f)["users"]}
    deleted = {e["subject"] for e in native if e["type"] == "account.deleted"}
    assert not exported & deleted, "a deleted account is in the export"
    print(f"OK {d}: {len(a)} events identical")
    print(summary(skipped, len(mapped), n_apple))


# Kinds of difference CONVERSION.md documents for the example story.
def allowed_difference(nat, mapped, field):
    t = nat["type"]
    if field not in nat:                    # added by the mapping
        v = mapped[field]
        if field == "value" and t in ("account.created", "signin", "identity.linked"):
            return "value added"
        if field == "email" and t == "identity.linked" and nat.get("provider") == "password" and v == nat.get("value"):
            return "email link: email added"
        if field == "provider" and t == "identity.linked" and nat.get("kind") == "phone" and v == "phone":
            return "phone link: provider added"
        if field == "status" and t == "token.revoked" and v == "succeeded":
            return "status succeeded added"
        if field in ("email", "is_private_email") and t == "apple.notification" and nat["event"].startswith("email-"):
            return "notification email added"
        return None
    if field not in mapped:                 # dropped
        if field == "value" and t == "identity.unlinked":
            return "unlink value dropped"
        return None
    if field == "value" and nat.get("kind") == "phone" and re.sub(r"\D", "", nat[field]) == re.sub(r"\D", "", mapped[field]):
        return "phone number respelled"
    return None


def check_examples(examples):
    d = os.path.join(examples, "real-logs")
    mapped, skipped, n_apple = map_dir(d, os.path.join(examples, "accounts.json"))
    native = {}
    dups = 0
    for ev in read_native(os.path.join(examples, "events.jsonl")):
        if ev["id"] in native:
            assert json.dumps(native[ev["id"]], sort_keys=True) == json.dumps(ev, sort_keys=True)
            dups += 1
            continue
        native[ev["id"]] = ev
    by_id = {}
    for ev in mapped:
        assert ev["id"] not in by_id, f"mapped id {ev['id']} twice"
        by_id[ev["id"]] = ev
    assert set(by_id) == set(native), (sorted(set(native) - set(by_id)), sorted(set(by_id) - set(native)))
    kinds, bad = {}, []
    for i, nat in native.items():
        m = by_id[i]
        for k in ("subject", "type", "app"):
            if nat.get(k) != m.get(k):
                if k == "app" and nat["type"] == "apple.notification" and "app" not in m:
                    kinds.setdefault("notification app dropped", set()).add(i)
                    continue
                bad.append(f"{i}: {k} {nat.get(k)!r} != {m.get(k)!r}")
        if instant(nat["time"]) != instant(m["time"]):
            bad.append(f"{i}: time {nat['time']} != {m['time']}")
        for f in (set(nat) | set(m)) - set(RESERVED):
            if nat.get(f, KeyError) == m.get(f, KeyError) and (f in nat) == (f in m):
                continue
            why = allowed_difference(nat, m, f)
            if why is None:
                bad.append(f"{i}: field {f}: native {nat.get(f, '(absent)')!r}, mapped {m.get(f, '(absent)')!r}")
            else:
                kinds.setdefault(why, set()).add(i)
    if bad:
        print("\n".join(bad))
        raise SystemExit(f"FAIL {d}: {len(bad)} undocumented differences")
    print(f"OK {d}: {len(native)} events (+{dups} duplicate line) map back with the same id, instant, "
          "subject, type, app and fields, except:")
    for why, ids in sorted(kinds.items()):
        print(f"  {why}: {len(ids)} ({', '.join(sorted(ids))})")
    print(summary(skipped, len(mapped), n_apple))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir")
    ap.add_argument("--examples", nargs="?", const=os.path.join(ROOT, "Examples"))
    ap.add_argument("--subjects", type=int, default=200)
    args = ap.parse_args()
    if args.examples:
        check_examples(args.examples)
        return
    if args.dir:
        check_generated(args.dir)
        return
    gen = os.path.join(HERE, "generate_real_logs.py")
    with tempfile.TemporaryDirectory() as tmp:
        for seed, padding in ((1, False), (7, True)):
            def run(out, jobs):
                cmd = [sys.executable, gen, "--subjects", str(args.subjects), "--seed", str(seed),
                       "--out", out, "--chunk", "64", "--jobs", str(jobs)]
                subprocess.run(cmd + (["--entry-padding"] if padding else []), check=True,
                               stdout=subprocess.DEVNULL)
            out, again = os.path.join(tmp, f"s{seed}"), os.path.join(tmp, f"s{seed}-again")
            run(out, 2)
            check_generated(out)
            run(again, 1)
            for name in sorted(os.listdir(out)):
                with open(os.path.join(out, name), "rb") as x, open(os.path.join(again, name), "rb") as y:
                    assert x.read() == y.read(), f"{name} differs between runs (not deterministic)"
            print("  a rerun with --jobs 1 gives byte-identical files")
    print("all checks passed")


if __name__ == "__main__":
    main()
