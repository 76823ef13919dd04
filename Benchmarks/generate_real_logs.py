#!/usr/bin/env python3
"""Deterministic generator of one story written twice: as native relaylint events and as the real
logs teams have (docs/mapping-language.md).

Usage:
  python3 Benchmarks/generate_real_logs.py --subjects N --seed S --out DIR [--entry-padding]
                                           [--jobs J] [--chunk C] [--new-key]

Writes into DIR:
  accounts.json             `firebase auth:export` JSON (docs/inputs.md) of the accounts that still
                            exist at the end (new-CLI entries with apple.com rawId for ~80% of
                            Apple users, old-CLI entries without it for the rest)
  events.jsonl              the native events: exactly the events (and fields) relaylint's mappings
                            give for the real-format files below (Cloud Logging through
                            Examples/real-logs/cloud-logging-by-app.yml, which takes the app from
                            the user agent), so both inputs give identical events apart from file
                            locations
  identity-platform.jsonl   Identity Platform user-activity entries, one LogEntry per line (sink)
  audit-logs.json           Cloud Audit Log entries, a 2-space indented JSON array as
                            `gcloud logging read --format=json --order=asc` prints it
  apple-notifications.jsonl Sign in with Apple notification bodies {"payload": "<JWS RS256>"}
  apple-keys.json           the JWKS that verifies them
  backend.jsonl             the app backend's JSON log (consents, revocations, deletion requests,
                            system/apple deletions, erasure, mail), read through a user mapping

The story: three clients (the notes and recipes iOS apps, a web app whose user agent names no
bundle id), sign-ups with Apple (hidden or shared email), Google, password, phone, Facebook,
Game Center and anonymous; sign-ins; links with and without prior consent (and with consent
withdrawn), second Google accounts, Apple IDs linked the other way round, Admin SDK links and
unlinks (several events from one SetAccountInfo entry); deletion requests, Apple token
revocations (some failed, some missing), deletions by the user, by an admin (DeleteAccount and
nightly BatchDeleteAccounts), after Apple's account-delete notification and by a cleanup job;
data erasure, mail, email-disabled/enabled and consent-revoked notifications. Records relaylint
must skip are mixed in: reads (GetAccountInfo, GetOobCode, CreateAuthUri), failed calls, disable-
only SetAccountInfo, backend page views, notifications for Apple ids no account holds.

--entry-padding writes Cloud Logging entries shaped and sized like real ones (~1.5 KB on average,
as real Identity Platform entries: names, photo URLs, the IdP's claims in rawUserInfo, request
attributes, redacted tokens); without it entries keep the whole envelope but only the payload
fields relaylint reads and a few more (~1.15 KB).

Speed (2 cores): 10k subjects ~2 s, 100k subjects ~20 s (~440k Cloud entries, ~500k events);
about 230k subjects give ~1M Cloud entries. Files are streamed chunk by chunk.

Subjects are generated in chunks of --chunk (default 2000), each from its own seeded generator,
on --jobs processes (default: all cores); the output is the same for any --jobs. Within a chunk
each file is in time order; chunks follow each other (the files are not globally sorted).
Notifications are signed with Scripts/example-apple-test-key.pem (deterministic output), or with
a key generated for this run with --new-key.
"""

import argparse
import base64
import json
import os
import random
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Scripts"))
import realformats as rf  # noqa: E402

MISSING = rf.MISSING
NS = rf.NS
MS = 1_000_000
SEC = NS
MIN = 60 * SEC
HOUR = 3600 * SEC
DAY = 86400 * SEC

PROJECT = rf.PROJECT_ID
NOTES, RECIPES = "com.sparrownotes.app", "com.sparrownotes.recipes"
WEB_SERVICE_ID = "com.sparrownotes.web"        # the Services ID web sign-ins use (aud)
START = rf.parse_time("2025-01-01T00:00:00Z")
SPAN = 540 * DAY
SENDERS = ("noreply@sparrow-notes-7f3a1.firebaseapp.com", "digest@mail.sparrownotes.example",
           "hello@mail.sparrownotes.example")
FIRST = ("maya", "tomas", "priya", "jonas", "daniel", "hannah", "zoe", "kenji", "fatima", "chidi",
         "lena", "marcus", "ana", "oliver", "sofia", "liam", "grace", "noah", "emma", "aisha",
         "lucas", "mei", "omar", "ines", "viktor", "sara", "diego", "yuki", "amara", "felix")
LAST = ("kowalski", "ferreira", "natarajan", "berg", "reyes", "schmidt", "laurent", "watanabe",
        "haddad", "okafor", "novak", "bell", "souza", "grant", "russo", "oconnor", "liu", "fischer",
        "larsen", "bello", "martin", "chen", "farouk", "garcia", "petrov", "lindqvist", "morales")
MAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.com")
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789"
OFFSETS = (120, -300, 330, 60, -480)           # minutes east of UTC, for backend servers in local time
OLD_CLI = {"google.com", "facebook.com", "twitter.com", "github.com"}
SCOPE_OF = {"email": "link.email", "phone": "link.phone", "social": "link.social"}
PURPOSE = {"link.email": "email_link", "link.phone": "phone_link", "link.social": "social_link"}
MASK64 = (1 << 64) - 1
KIND_INSERT, KIND_JTI, KIND_REQUEST = 1, 2, 3


def mix(g):
    """A bijection of 64-bit integers (so distinct counters give distinct ids)."""
    g = (g * 0x9E3779B97F4A7C15) & MASK64
    g ^= g >> 31
    g = (g * 0xBF58476D1CE4E5B9) & MASK64
    g ^= g >> 29
    return g


def base36(n, width):
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(LOWER36[r])
    return "".join(reversed(out)).rjust(width, "0")


class Subject:
    __slots__ = ("uid", "app", "ua", "first", "last", "name", "t", "ids", "primary", "deleted",
                 "created_ns", "last_signin_ns", "email", "password_hash", "new_cli", "custom",
                 "disabled", "photo")

    def anonymized(self):
        a = self.ids.get("apple.com")
        return a is not None and (a["relay"] or a.get("ipe") in (True, "true"))


class Chunk:
    def __init__(self, index, seed, total, first, count, detail, key):
        self.index = index
        self.rng = random.Random(f"relaylint-real-logs:{seed}:{index}")
        self.total, self.first, self.count = total, first, count
        self.cloud = rf.CloudLog(PROJECT, detail)
        self.key = key
        self.seq = 0
        self.counter = 0
        self.out = {"activity": [], "audit": [], "apple": [], "backend": [], "native": []}
        self.accounts = []
        self.batches = {}                           # (night ns, app) -> [uid]

    # ids -------------------------------------------------------------------------------------
    def _g(self, kind):
        self.counter += 1
        return mix((kind << 60) | (self.index << 36) | self.counter)

    def insert_id(self):
        return base36(self._g(KIND_INSERT), 13)

    def jti(self):
        return f"{self._g(KIND_JTI):016x}"

    def request_id(self):
        a = self._g(KIND_REQUEST)
        b = mix(a ^ 0x5DEECE66D)
        h = f"{a:016x}{b:016x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[b & 3]}{h[17:20]}-{h[20:32]}"

    # output ----------------------------------------------------------------------------------
    def _put(self, sink, ns, text):
        self.seq += 1
        self.out[sink].append((ns, self.seq, text))

    def native(self, ns, eid, time_value, subject, typ, app, fields):
        ev = {"id": eid, "time": time_value, "subject": subject, "type": typ}
        if app is not None:
            ev["app"] = app
        ev.update(fields)
        self._put("native", ns, json.dumps(ev, ensure_ascii=False, separators=(",", ":")))

    def entry(self, entry, ns, app, events, audit=False):
        """Write a LogEntry and the native events relaylint maps it to: [(subject, type, fields)]."""
        if audit:
            self._put("audit", ns, rf.gcloud_entry_text(entry))
        else:
            self._put("activity", ns, rf.sink_line(entry))
        iid, ts = entry["insertId"], entry["timestamp"]
        for k, (subject, typ, fields) in enumerate(events, 1):
            self.native(ns, iid + (f"#{k}" if len(events) > 1 else ""), ts, subject, typ, app, fields)

    def backend(self, s, ns, action, fields, typ=None, native_fields=None):
        """A backend record at ns (rounded up to the millisecond); typ None: skipped by relaylint."""
        ns = -(-ns // MS) * MS
        s.t = max(s.t, ns)
        rng = self.rng
        if rng.random() < 0.12:
            off = OFFSETS[rng.randrange(len(OFFSETS))]
            local = rf.rfc3339(ns + off * MIN, 3)[:-1]
            ts = f"{local}{'+' if off >= 0 else '-'}{abs(off) // 60:02d}:{abs(off) % 60:02d}"
        else:
            ts = rf.rfc3339(ns, 3)
        rid = self.request_id()
        rec = rf.backend_record(rid, ts, s.uid, s.app, action, **fields)
        self._put("backend", ns, rf.backend_line(rec))
        if typ is not None:
            self.native(ns, rid, ts, s.uid, typ, s.app, native_fields)

    def notification(self, s, ns, event, sub, *, email=None, ipe=MISSING, orphan=False):
        ns = -(-ns // MS) * MS
        if s is not None:
            s.t = max(s.t, ns)
        aud = (s.app if s is not None and s.app else WEB_SERVICE_ID) if not orphan else NOTES
        jti = self.jti()
        claims = rf.apple_claims(jti, event, sub, ns // MS, aud, email=email, is_private_email=ipe)
        self._put("apple", ns, rf.apple_body_line(claims, self.key))
        if not orphan:
            fields = {"event": event}
            if email is not None:
                fields["email"] = email
            if ipe is not MISSING:
                fields["is_private_email"] = ipe
            # The built-in mapping gives a notification no app (`aud` names the Sign in with
            # Apple client, not the app that made the account).
            self.native(ns, jti, ns // MS, s.uid, "apple.notification", None, fields)

    # clock -----------------------------------------------------------------------------------
    def wait(self, s, lo_s, hi_s):
        s.t += int(self.rng.uniform(lo_s, hi_s) * SEC) + self.rng.randrange(1, 1000) * 1000

    def days(self, s, mean):
        s.t += int(self.rng.expovariate(1.0 / mean) * DAY) + self.rng.randrange(60, 3600) * SEC \
            + self.rng.randrange(0, 1_000_000) * 1000

    def cloud_ns(self, s):
        """The entry timestamp: microseconds, sometimes nanoseconds, as Cloud Logging keeps them."""
        if self.rng.random() < 0.03:
            s.t += self.rng.randrange(1, 1000)
        return s.t

    # identities ------------------------------------------------------------------------------
    def real_email(self, s):
        r = self.rng.random()
        if r < 0.5:
            local = f"{s.first}.{s.last}"
        elif r < 0.8:
            local = f"{s.first[0]}.{s.last}{self.rng.randrange(1, 100)}"
        else:
            local = f"{s.first}{self.rng.randrange(1, 1000)}"
        return f"{local}@{MAIL_DOMAINS[self.rng.randrange(len(MAIL_DOMAINS))]}"

    def phone_number(self):
        return f"+1{self.rng.randrange(201, 990)}555{self.rng.randrange(100, 200):04d}"

    def new_identity(self, s, provider, hidden=None):
        rng = self.rng
        if provider == "apple.com":
            sub = f"001437.{rng.getrandbits(128):032x}.1204"
            if hidden is None:
                hidden = rng.random() < 0.8
            if hidden:
                domain = "private.icloud.com" if rng.random() < 0.05 else "privaterelay.appleid.com"
                email = "".join(rng.choices(LOWER36, k=10)) + "@" + domain
                r = rng.random()
                ipe = True if r < 0.7 else "true" if r < 0.95 else MISSING
            else:
                email = f"{s.first}.{s.last}@icloud.com" if rng.random() < 0.5 else self.real_email(s)
                ipe = False if rng.random() < 0.7 else "false"
            return {"sub": sub, "email": email, "ipe": ipe, "relay": hidden, "fed": sub}
        if provider in ("google.com", "facebook.com"):
            raw = str(rng.randrange(10 ** 20, 10 ** 21)) if provider == "google.com" else \
                str(rng.randrange(10 ** 15, 10 ** 16))
            return {"raw": raw, "email": self.real_email(s), "fed": rf.federated_id(provider, raw)}
        if provider == "password":
            return {"email": self.real_email(s)}
        if provider == "phone":
            return {"number": self.phone_number()}
        if provider == "gc.apple.com":
            return {"player": f"G:{rng.randrange(10 ** 9, 10 ** 10)}"}
        return {}

    # account changes in the activity log -----------------------------------------------------
    def sign_in(self, s, provider, mode):
        """mode: new (account.created), link (identity.linked), signin."""
        rng = self.rng
        info = s.ids[provider]
        iid = self.insert_id()
        ns = self.cloud_ns(s)
        typ = {"new": "account.created", "link": "identity.linked", "signin": "signin"}[mode]
        new, link = mode == "new", mode == "link"
        cloud = self.cloud
        f = {"provider": provider}
        if provider in ("password", "anonymous") and new:
            email = info.get("email")
            entry = cloud.sign_up(iid, ns, s.uid, s.ua, email=email, display_name=s.name)
            if email is None:
                f["provider"] = "anonymous"
            else:
                f["email"] = email
        elif provider == "password":
            if link or rng.random() < 0.1:      # email-link sign-in; with idToken, a link
                addr = info["email"]
                fed = addr if link else None
                entry = cloud.sign_in_password(iid, ns, s.uid, s.ua, addr, link=link, email_link=True,
                                               fed_id=fed, display_name=s.name)
                f["email"] = addr
                if fed is not None:
                    f["value"] = fed
            else:
                entry = cloud.sign_in_password(iid, ns, s.uid, s.ua, info["email"], display_name=s.name)
                f["email"] = info["email"]
        elif provider == "phone":
            entry = cloud.sign_in_phone(iid, ns, s.uid, s.ua, info["number"], new_user=new, link=link)
            f["value"] = info["number"]
        elif provider == "gc.apple.com":
            entry = cloud.sign_in_game_center(iid, ns, s.uid, s.ua, info["player"], new_user=new,
                                              link=link, display_name=s.name, bundle_id=s.app)
        else:
            email = info["email"]
            ipe = MISSING
            if provider == "apple.com":
                ipe = info["ipe"]
                if mode == "signin" and rng.random() < 0.5:
                    email = None
                if mode == "signin" and ipe is not MISSING and rng.random() < 0.1:
                    ipe = MISSING
            entry = cloud.sign_in_idp(iid, ns, s.uid, s.ua, provider, new_user=new, link=link,
                                      email=email, fed_id=info["fed"], is_private_email=ipe,
                                      aud=s.app or WEB_SERVICE_ID, display_name=s.name,
                                      photo_url=s.photo if provider == "google.com" else None)
            if email is not None:
                f["email"] = email
            f["value"] = info["fed"]
            if ipe is not MISSING:
                f["is_private_email"] = ipe
        if link:
            f["kind"] = {"password": "email", "phone": "phone"}.get(provider, "provider")
        self.entry(entry, ns, s.app, [(s.uid, typ, f)])
        if mode != "link":
            s.last_signin_ns = ns

    def set_account_info(self, s, *, admin, unlink=(), link_infos=(), email=None, phone=None):
        iid = self.insert_id()
        ns = self.cloud_ns(s)
        app = s.app
        ua = s.ua
        if admin:
            app = s.app if self.rng.random() < 0.7 else None
            ua = rf.admin_user_agent(app)
        entry = self.cloud.set_account_info(iid, ns, s.uid, ua, admin=admin, delete_providers=unlink,
                                            link_provider_user_info=link_infos, email=email, phone=phone)
        evs = []
        for p in unlink:
            evs.append((s.uid, "identity.unlinked",
                        {"provider": p, "kind": {"phone": "phone", "password": "email"}.get(p, "provider")}))
        for info in link_infos:
            f = {"kind": "provider", "provider": info["providerId"]}
            if "email" in info:
                f["email"] = info["email"]
            f["value"] = info["rawId"]
            evs.append((s.uid, "identity.linked", f))
        if email is not None:
            evs.append((s.uid, "identity.linked", {"kind": "email", "value": email}))
        if phone is not None:
            evs.append((s.uid, "identity.linked", {"kind": "phone", "value": phone}))
        self.entry(entry, ns, app, evs, audit=admin)

    # noise relaylint skips -------------------------------------------------------------------
    def noise_after_signin(self, s):
        rng = self.rng
        r = rng.random()
        if r < 0.15:
            self.wait(s, 0.3, 4)
            self._put("activity", s.t, rf.sink_line(self.cloud.get_account_info(
                self.insert_id(), s.t, s.uid, s.ua, admin=False)))
        elif r < 0.18:
            self.wait(s, 1, 30)
            self._put("activity", s.t, rf.sink_line(self.cloud.create_auth_uri(
                self.insert_id(), s.t, s.ua, s.email or f"{s.first}@example.com")))
        if "password" in s.ids and rng.random() < 0.03:
            self.wait(s, 60, 3600)
            self._put("activity", s.t, rf.sink_line(self.cloud.get_oob_code(
                self.insert_id(), s.t, s.ua, s.ids["password"]["email"])))
        r = rng.random()
        if r < 0.25:
            self.wait(s, 2, 120)
            self.backend(s, s.t, "page_view", {"path": rng.choice(("/", "/notes", "/recipes/saved", "/settings"))})
        elif r < 0.4:
            self.wait(s, 600, 3500)
            self.backend(s, s.t, "session_refresh", {"ttl_s": 3600})

    def failed_password(self, s):
        self.wait(s, 0, 0.1)
        self._put("activity", s.t, rf.sink_line(self.cloud.failed_sign_in_password(
            self.insert_id(), s.t, s.ua, s.ids["password"]["email"],
            *self.rng.choice(((3, "INVALID_LOGIN_CREDENTIALS"), (3, "INVALID_PASSWORD"),
                              (8, "TOO_MANY_ATTEMPTS_TRY_LATER"))))))
        self.wait(s, 5, 60)

    # the story -------------------------------------------------------------------------------
    def subject(self, i):
        rng = self.rng
        s = Subject()
        s.uid = "".join(rng.choices(ALNUM, k=28))
        r = rng.random()
        s.app = NOTES if r < 0.55 else RECIPES if r < 0.9 else None
        s.ua = rf.ios_user_agent(s.app, s.uid) if s.app else rf.web_user_agent(s.uid)
        s.first, s.last = rng.choice(FIRST), rng.choice(LAST)
        s.name = f"{s.first.capitalize()} {s.last.capitalize()}"
        s.t = START + (SPAN * i) // self.total + rng.randrange(0, DAY // 1000) * 1000
        s.ids, s.deleted, s.email, s.password_hash, s.custom, s.photo = {}, False, None, None, None, None
        s.new_cli = rng.random() < 0.8
        s.disabled = False
        r = rng.random()
        provider = ("apple.com" if r < 0.35 else "google.com" if r < 0.6 else "password" if r < 0.78
                    else "phone" if r < 0.87 else "facebook.com" if r < 0.94 else "anonymous" if r < 0.98
                    else "gc.apple.com")
        if provider == "gc.apple.com" and s.app is None:
            provider = "google.com"
        s.primary = provider
        s.ids[provider] = self.new_identity(s, provider)
        if provider == "google.com":
            s.photo = f"https://lh3.googleusercontent.com/a/ACg8oc{''.join(rng.choices(ALNUM, k=22))}=s96-c"
        s.email = s.ids[provider].get("email")
        if provider == "password":
            s.password_hash = rf.stable_hex(128, "hash", s.uid)
        if provider == "password" and rng.random() < 0.2:
            self._put("activity", s.t, rf.sink_line(self.cloud.create_auth_uri(
                self.insert_id(), s.t, s.ua, s.email)))
            self.wait(s, 5, 90)
        self.sign_in(s, provider, "new")
        s.created_ns = s.t
        s.last_signin_ns = s.t
        if s.email and rng.random() < 0.5:
            self.wait(s, 2, 30)
            self.mail(s, SENDERS[0])
        self.noise_after_signin(s)

        n_signins = min(int(rng.expovariate(1 / 3.0)), 12)
        link_at = rng.randrange(0, n_signins + 1)
        for k in range(n_signins + 1):
            if k == link_at:
                self.links(s)
            if k == n_signins:
                break
            self.days(s, 12)
            if s.primary == "anonymous" and not (set(s.ids) - {"anonymous"}):
                continue
            choices = [p for p in s.ids if p != "anonymous"]
            p = s.primary if s.primary in s.ids and s.primary != "anonymous" and rng.random() < 0.75 \
                else rng.choice(choices)
            if p == "password" and rng.random() < 0.06:
                self.failed_password(s)
            self.sign_in(s, p, "signin")
            self.noise_after_signin(s)
            if s.email and rng.random() < 0.15:
                self.wait(s, 3600, 86400 * 3)
                self.mail(s, SENDERS[1])
        self.apple_mail_events(s)
        if rng.random() < 0.04:
            self.unlinks(s)
        if rng.random() < 0.15:
            self.deletion(s)
        if rng.random() < 0.01:                     # an Apple id no account holds: skipped
            self.days(s, 3)
            self.notification(None, s.t, rng.choice(("consent-revoked", "email-disabled")),
                              f"001437.{rng.getrandbits(128):032x}.1204", orphan=True)
        if not s.deleted:
            self.accounts.append(self.export_user(s))

    def mail(self, s, sender, to=None):
        to = to or s.email
        self.backend(s, s.t, "mail_sent", {"to": to, "from": sender, "template": "digest" if "digest" in sender else "welcome"},
                     "email.sent", {"to": to, "from": sender})

    def consent(self, s, scope, withdrawn=False):
        action = "consent_withdrawn" if withdrawn else "consent_given"
        self.backend(s, s.t, action, {"purpose": PURPOSE[scope]},
                     "consent.withdrawn" if withdrawn else "consent.granted", {"scope": scope})

    def links(self, s):
        """Links of PII onto an anonymized Apple ID, of an Apple ID onto a PII account, admin links."""
        rng = self.rng
        if s.anonymized() and rng.random() < 0.35:
            for _ in range(1 if rng.random() < 0.8 else 2):
                self.days(s, 6)
                cat = rng.choices(("email", "phone", "social"), (40, 25, 35))[0]
                self.with_consent(s, SCOPE_OF[cat], lambda: self.link_one(s, cat))
        elif "apple.com" not in s.ids and s.primary != "anonymous" and rng.random() < 0.06:
            self.days(s, 8)
            scope = {"password": "link.email", "phone": "link.phone"}.get(s.primary, "link.social")

            def link_apple():
                s.ids["apple.com"] = self.new_identity(s, "apple.com", hidden=True)
                self.sign_in(s, "apple.com", "link")
            self.with_consent(s, scope, link_apple)
        if rng.random() < 0.01 and "phone" not in s.ids:
            # Support sets a phone number the user gave by phone (Admin SDK updateUser).
            self.days(s, 10)
            s.ids["phone"] = self.new_identity(s, "phone")
            self.set_account_info(s, admin=True, phone=s.ids["phone"]["number"])
        if rng.random() < 0.02 and "google.com" not in s.ids:
            # Support merges a Google identity and a contact email in one Admin SDK call.
            self.days(s, 10)
            g = self.new_identity(s, "google.com")
            s.ids["google.com"] = g
            info = {"providerId": "google.com", "rawId": g["raw"], "email": g["email"], "displayName": s.name}
            contact = self.real_email(s)
            self.set_account_info(s, admin=True, link_infos=[info], email=contact)
            s.email = contact

    def with_consent(self, s, scope, act):
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            self.wait(s, 5, 600)
            self.consent(s, scope)
        elif r < 0.7:
            self.wait(s, 5, 600)
            self.consent(s, scope)
            self.days(s, 3)
            self.consent(s, scope, withdrawn=True)
        self.wait(s, 5, 300)
        act()

    def link_one(self, s, cat):
        rng = self.rng
        if cat == "email":
            if rng.random() < 0.6 or "password" in s.ids:
                addr = self.real_email(s)
                self.set_account_info(s, admin=False, email=addr)
                s.email = addr
            else:
                s.ids["password"] = self.new_identity(s, "password")
                s.password_hash = rf.stable_hex(128, "hash", s.uid)
                self.sign_in(s, "password", "link")
        elif cat == "phone":
            if "phone" in s.ids and rng.random() < 0.5:
                s.ids["phone"] = self.new_identity(s, "phone")      # a new number
            else:
                s.ids.setdefault("phone", self.new_identity(s, "phone"))
            self.sign_in(s, "phone", "link")
        else:
            p = "google.com" if rng.random() < 0.7 else "facebook.com"
            s.ids[p] = self.new_identity(s, p)                       # a second Google account, too
            self.sign_in(s, p, "link")
            if p == "google.com" and rng.random() < 0.1:
                self.days(s, 20)
                self.with_consent(s, "link.social", lambda: self.link_second_google(s))

    def link_second_google(self, s):
        s.ids["google.com"] = self.new_identity(s, "google.com")
        self.sign_in(s, "google.com", "link")

    def unlinks(self, s):
        rng = self.rng
        linked = [p for p in s.ids if p not in ("anonymous", s.primary)]
        if not linked:
            return
        self.days(s, 15)
        if len(linked) >= 2 and rng.random() < 0.3:
            drop = rng.sample(linked, 2)
            self.set_account_info(s, admin=True, unlink=drop)
        else:
            drop = [rng.choice(linked)]
            self.set_account_info(s, admin=rng.random() < 0.2, unlink=drop)
        for p in drop:
            del s.ids[p]
            if p == "password":
                s.password_hash = None

    def apple_mail_events(self, s):
        rng = self.rng
        a = s.ids.get("apple.com")
        if a is None:
            return
        if a["relay"] and rng.random() < 0.05:
            self.days(s, 20)
            self.notification(s, s.t, "email-disabled", a["sub"], email=a["email"], ipe="true")
            if rng.random() < 0.5:
                self.days(s, 4)
                self.mail(s, SENDERS[1], to=a["email"])       # a future rule's finding
            if rng.random() < 0.5:
                self.days(s, 10)
                self.notification(s, s.t, "email-enabled", a["sub"], email=a["email"], ipe="true")

    def deletion(self, s):
        rng = self.rng
        a = s.ids.get("apple.com")
        self.days(s, 30)
        r = rng.random()
        if a is not None and r < 0.12:
            # The user deleted their Apple Account; Apple tells the app.
            self.notification(s, s.t, rng.choice(("account-delete", "account-deleted")), a["sub"])
            self.wait(s, 2, 20)
            if rng.random() < 0.6:
                self.backend(s, s.t, "account_deleted", {"by": "apple"}, "account.deleted", {"initiator": "apple"})
            else:
                self.admin_delete(s, batch=False)
        elif a is not None and r < 0.22:
            self.notification(s, s.t, "consent-revoked", a["sub"])
            self.wait(s, 1, 10)
            if rng.random() < 0.5:                  # the backend disables the account: skipped
                iid = self.insert_id()
                ns = self.cloud_ns(s)
                app = s.app if rng.random() < 0.7 else None
                self._put("audit", ns, rf.gcloud_entry_text(self.cloud.set_account_info(
                    iid, ns, s.uid, rf.admin_user_agent(app), admin=True,
                    extra={"disableUser": True, "customAttributes": json.dumps(
                        {"siwaState": "consent-revoked", "siwaEventTime": ns // MS}, separators=(",", ":"))})))
            self.days(s, 25)
            self.backend(s, s.t, "account_deleted", {"by": "system", "job": "siwa-cleanup"},
                         "account.deleted", {"initiator": "system"})
        elif r < 0.65:
            channel = "in_app" if s.app is not None or rng.random() < 0.3 else "web"
            if channel == "in_app" and rng.random() < 0.5:
                self.backend(s, s.t, "page_view", {"path": "/settings/account/delete"})
                self.wait(s, 5, 60)
            self.backend(s, s.t, "deletion_requested", {"via": channel},
                         "account.deletion_requested", {"channel": channel})
            self.revoke(s, a, 0.8, 0.1)
            self.wait(s, 0.5, 5)
            iid = self.insert_id()
            ns = self.cloud_ns(s)
            self.entry(self.cloud.delete_account(iid, ns, s.uid, s.ua, admin=False), ns, s.app,
                       [(s.uid, "account.deleted", {"initiator": "user"})])
        else:
            channel = rng.choice(("web", "email", "support"))
            self.backend(s, s.t, "deletion_requested", {"via": channel},
                         "account.deletion_requested", {"channel": channel})
            self.days(s, 2)
            self.revoke(s, a, 0.5, 0.15)
            self.admin_delete(s, batch=rng.random() < 0.5)
        s.deleted = True
        for store in ("firestore", "storage", "rtdb"):
            if store == "firestore" and rng.random() < 0.9 or store != "firestore" and rng.random() < 0.3:
                self.wait(s, 1, 40)
                self.backend(s, s.t, "data_erased", {"store": store, "docs": rng.randrange(1, 400)},
                             "data.deleted", {"store": store})

    def revoke(self, s, a, p_ok, p_err):
        if a is None:
            return
        r = self.rng.random()
        if r < p_ok + p_err:
            self.wait(s, 0.2, 3)
            ok = r < p_ok
            fields = {"result": "ok", "http_status": 200} if ok else \
                {"result": "error", "error": "invalid_grant", "http_status": 400}
            self.backend(s, s.t, "apple_token_revoked", fields, "token.revoked",
                         {"provider": "apple.com", "status": "succeeded" if ok else "failed"})

    def admin_delete(self, s, batch):
        rng = self.rng
        app = s.app if rng.random() < 0.7 else None
        if rng.random() < 0.5:                      # support looks the user up first: skipped
            self.wait(s, 30, 600)
            iid = self.insert_id()
            self._put("audit", s.t, rf.gcloud_entry_text(self.cloud.get_account_info(
                iid, s.t, s.uid, rf.admin_user_agent(app), admin=True)))
        if batch:
            # The weekly cleanup job: Sundays 02:00 UTC, 1-7 days later (1970-01-01 was a Thursday).
            night = ((s.t // DAY + 4) // 7 + 1) * 7 * DAY - 4 * DAY + 2 * HOUR
            night += rf.stable_int("night", self.index, night, app) % 900_000 * 1000
            self.batches.setdefault((night, app), []).append(s.uid)
            s.t = night
            return
        self.wait(s, 1, 120)
        iid = self.insert_id()
        ns = self.cloud_ns(s)
        self.entry(self.cloud.delete_account(iid, ns, s.uid, rf.admin_user_agent(app), admin=True),
                   ns, app, [(s.uid, "account.deleted", {"initiator": "admin"})], audit=True)

    def flush_batches(self):
        for (night, app), uids in sorted(self.batches.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            for j in range(0, len(uids), 50):
                part = uids[j:j + 50]
                iid = self.insert_id()
                ns = night + j // 50 * SEC
                entry = self.cloud.batch_delete_accounts(iid, ns, part, rf.admin_user_agent(app))
                self.entry(entry, ns, app, [(u, "account.deleted", {"initiator": "admin"}) for u in part],
                           audit=True)

    # export ----------------------------------------------------------------------------------
    def export_user(self, s):
        rng = self.rng
        u = {"localId": s.uid}
        apple = s.ids.get("apple.com")
        email = s.email
        if email is None and apple is not None:
            email = apple["email"]
        if email is not None:
            u["email"] = email
            u["emailVerified"] = rng.random() < 0.9
        if s.password_hash:
            u["passwordHash"] = base64_of(s.password_hash)
            u["salt"] = base64_of(rf.stable_hex(24, "salt", s.uid))
        if s.primary != "anonymous" or len(s.ids) > 1:
            u["displayName"] = s.name
        if s.photo and "google.com" in s.ids:
            u["photoUrl"] = s.photo
        u["lastSignedInAt"] = str(s.last_signin_ns // MS)
        u["createdAt"] = str((s.created_ns - rng.randrange(100, 900) * MS) // MS)
        if "phone" in s.ids:
            u["phoneNumber"] = s.ids["phone"]["number"]
        if set(s.ids) == {"anonymous"}:
            return json.dumps(u, ensure_ascii=False, indent=2)    # no providerUserInfo
        if rng.random() < 0.5:
            u["disabled"] = False
        if rng.random() < 0.05:
            u["customAttributes"] = json.dumps({"plan": rng.choice(("pro", "free"))}, separators=(",", ":"))
        pui = []
        for p in ("apple.com", "google.com", "facebook.com", "gc.apple.com"):
            info = s.ids.get(p)
            if info is None or (not s.new_cli and p not in OLD_CLI):
                continue
            e = {"providerId": p}
            if p == "apple.com":
                e["rawId"] = info["sub"]
                e["email"] = info["email"]
            elif p == "gc.apple.com":
                e["rawId"] = info["player"]
            else:
                e["rawId"] = info["raw"]
                e["email"] = info["email"]
                e["displayName"] = s.name
                if p == "google.com" and s.photo:
                    e["photoUrl"] = s.photo
            pui.append(e)
        u["providerUserInfo"] = pui
        return json.dumps(u, ensure_ascii=False, indent=2)

    def run(self):
        for i in range(self.first, self.first + self.count):
            self.subject(i)
        self.flush_batches()
        result = {}
        for sink, items in self.out.items():
            items.sort()
            result[sink] = [text for _, _, text in items]
        result["accounts"] = self.accounts
        return result


def base64_of(hex_text):
    return base64.b64encode(bytes.fromhex(hex_text)).decode()


def load_key(path, pem):
    if pem is None:
        return rf.load_private_key(path)
    from cryptography.hazmat.primitives import serialization
    return serialization.load_pem_private_key(pem, None)


_worker = {}


def _init(key_pem_path, new_key_pem, seed, total, chunk, detail):
    key = load_key(key_pem_path, new_key_pem)
    _worker.update(key=key, seed=seed, total=total, chunk=chunk, detail=detail)


def _run_chunk(k):
    w = _worker
    first = k * w["chunk"]
    count = min(w["chunk"], w["total"] - first)
    return Chunk(k, w["seed"], w["total"], first, count, w["detail"], w["key"]).run()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--subjects", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--entry-padding", action="store_true",
                    help="Cloud Logging entries shaped and sized like real ones (~1.5 KB)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--chunk", type=int, default=2000, help="subjects per chunk (changes the output)")
    ap.add_argument("--key", default=os.path.join(ROOT, "Scripts", "example-apple-test-key.pem"))
    ap.add_argument("--new-key", action="store_true", help="sign with a key generated for this run")
    args = ap.parse_args()
    t0 = time.time()
    os.makedirs(args.out, exist_ok=True)
    new_pem = rf.private_key_pem(rf.generate_private_key()).encode() if args.new_key else None
    detail = "full" if args.entry_padding else "lean"
    init = (args.key, new_pem, args.seed, args.subjects, args.chunk, detail)
    n_chunks = (args.subjects + args.chunk - 1) // args.chunk

    names = {"activity": "identity-platform.jsonl", "audit": "audit-logs.json",
             "apple": "apple-notifications.jsonl", "backend": "backend.jsonl", "native": "events.jsonl"}
    files = {k: open(os.path.join(args.out, v), "w", encoding="utf-8", newline="\n") for k, v in names.items()}
    accounts = open(os.path.join(args.out, "accounts.json"), "w", encoding="utf-8", newline="\n")
    files["audit"].write("[")
    accounts.write('{"users": [\n')
    counts = {k: 0 for k in names}
    n_accounts = 0

    def consume(result):
        nonlocal n_accounts
        for sink, lines in result.items():
            if not lines:
                continue
            if sink == "audit":
                files["audit"].write(("\n" if counts["audit"] == 0 else ",\n") + ",\n".join(lines))
            elif sink == "accounts":
                accounts.write((",\n" if n_accounts else "") + ",\n".join(lines))
                n_accounts += len(lines)
                continue
            else:
                files[sink].write("\n".join(lines) + "\n")
            counts[sink] += len(lines)

    if args.jobs <= 1 or n_chunks == 1:
        _init(*init)
        for k in range(n_chunks):
            consume(_run_chunk(k))
    else:
        with Pool(args.jobs, initializer=_init, initargs=init) as pool:
            for result in pool.imap(_run_chunk, range(n_chunks)):
                consume(result)
    files["audit"].write("\n]\n" if counts["audit"] else "]\n")
    accounts.write("]}")
    for f in list(files.values()) + [accounts]:
        f.close()
    key = load_key(args.key, new_pem)
    with open(os.path.join(args.out, "apple-keys.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(rf.jwks_text(key.public_key()))
    took = time.time() - t0
    print(f"{args.subjects} subjects, {n_accounts} exported accounts, {counts['native']} native events; "
          f"{counts['activity']} activity + {counts['audit']} audit entries, {counts['apple']} notifications, "
          f"{counts['backend']} backend records ({took:.1f} s)")


if __name__ == "__main__":
    main()
