"""Real-format records for relaylint's test data (stdlib + `cryptography`).

The inverse of the mapping relaylint applies to the logs teams really have (docs/mapping-language.md,
"The built-in mappings"): it writes one story both as native relaylint events (docs/inputs.md) and as

* Google Cloud Logging entries: Identity Platform user-activity logs (a RequestLog in
  `jsonPayload`) and Cloud Audit Logs of identitytoolkit.googleapis.com (an AuditLog in
  `protoPayload`), as a Cloud Storage sink writes them (`sink_line`) or as
  `gcloud logging read --format=json` prints them (`gcloud_json`);
* Sign in with Apple server-to-server notification bodies `{"payload": "<JWS RS256>"}`
  (`apple_claims`, `sign_rs256`, `jwks`);
* the app backend's own JSON log lines, read through a user mapping (`backend_record`).

Two layers:

* builders (`CloudLog.sign_in_idp`, `CloudLog.set_account_info`, `apple_claims`,
  `backend_record`, ...) take explicit values; Benchmarks/generate_real_logs.py uses them;
* `convert_event(event, ctx)` turns one native event dict into one real-format record, or raises
  `Inexpressible`; it records in `ctx.notes` every place where the record cannot say exactly what
  the native event says (Scripts/make-example-real-logs.py uses it).

Everything is deterministic: values that look random (IPs, delays, token ids) are derived from a
hash of the record's id. RS256 (PKCS#1 v1.5) signatures are deterministic too.
"""

import base64
import datetime
import hashlib
import json
import re
from decimal import Decimal

PROJECT_ID = "sparrow-notes-7f3a1"
REQUEST_LOG_TYPE = "type.googleapis.com/google.cloud.identitytoolkit.logging.RequestLog"
AUDIT_LOG_TYPE = "type.googleapis.com/google.cloud.audit.AuditLog"
IDENTITY_TOOLKIT = "identitytoolkit.googleapis.com"
APPLE_ISSUER = "https://appleid.apple.com"
TEST_KID = "relaylint-test-1"            # the kid of the examples' test key (not an Apple key)

SERVICE = {
    "SignUp": "AuthenticationService",
    "SignInWithIdp": "AuthenticationService",
    "SignInWithPassword": "AuthenticationService",
    "SignInWithEmailLink": "AuthenticationService",
    "SignInWithPhoneNumber": "AuthenticationService",
    "SignInWithGameCenter": "AuthenticationService",
    "CreateAuthUri": "AuthenticationService",
    "SetAccountInfo": "AccountManagementService",
    "DeleteAccount": "AccountManagementService",
    "BatchDeleteAccounts": "AccountManagementService",
    "GetAccountInfo": "AccountManagementService",
    "GetOobCode": "AccountManagementService",
    "DownloadAccount": "AccountManagementService",
}
PERMISSION = {
    "DeleteAccount": ("firebaseauth.users.delete", "DATA_WRITE"),
    "BatchDeleteAccounts": ("firebaseauth.users.delete", "DATA_WRITE"),
    "SetAccountInfo": ("firebaseauth.users.update", "DATA_WRITE"),
    "SignUp": ("firebaseauth.users.create", "DATA_WRITE"),
    "GetAccountInfo": ("firebaseauth.users.get", "DATA_READ"),
    "DownloadAccount": ("firebaseauth.users.get", "DATA_READ"),
    "GetOobCode": ("firebaseauth.users.sendEmail", "DATA_WRITE"),
}

MISSING = object()
NS = 1_000_000_000


class Inexpressible(Exception):
    """A native event that no real-format record can express."""


# ----------------------------------------------------------------------------------------- time

_TIME_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?"
                      r"(?:([Zz])|([+-])(\d{2}):(\d{2}))$")
_EPOCH_DAY = datetime.date(1970, 1, 1)
_day_cache = {}


def parse_time(value):
    """A native `time` (RFC 3339 string or epoch-ms number) as integer nanoseconds since 1970."""
    if isinstance(value, bool):
        raise ValueError("time is a boolean")
    if isinstance(value, (int, float)):
        ns = Decimal(str(value)) * 1_000_000
        if ns != ns.to_integral_value():
            raise ValueError(f"time {value!r} is finer than a nanosecond")
        return int(ns)
    m = _TIME_RE.match(value)
    if not m:
        raise ValueError(f"not an RFC 3339 time: {value!r}")
    y, mo, d, h, mi, s, frac, z, sign, oh, om = m.groups()
    days = (datetime.date(int(y), int(mo), int(d)) - _EPOCH_DAY).days
    secs = days * 86400 + int(h) * 3600 + int(mi) * 60 + int(s)
    if not z:
        off = int(oh) * 3600 + int(om) * 60
        secs -= off if sign == "+" else -off
    return secs * NS + (int(frac.ljust(9, "0")) if frac else 0)


def _day(days):
    s = _day_cache.get(days)
    if s is None:
        s = (_EPOCH_DAY + datetime.timedelta(days=days)).isoformat()
        _day_cache[days] = s
    return s


def rfc3339(ns, digits=None):
    """`ns` as RFC 3339 with `Z`. digits=None: protobuf style, 0, 3, 6 or 9 fraction digits, the
    fewest that are exact (how Cloud Logging prints timestamps); else exactly `digits` (truncated)."""
    secs, frac = divmod(ns, NS)
    days, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    mi, s = divmod(rest, 60)
    if digits is None:
        if frac == 0:
            f = ""
        elif frac % 1_000_000 == 0:
            f = f".{frac // 1_000_000:03d}"
        elif frac % 1000 == 0:
            f = f".{frac // 1000:06d}"
        else:
            f = f".{frac:09d}"
    elif digits == 0:
        f = ""
    else:
        f = "." + f"{frac:09d}"[:digits]
    return f"{_day(days)}T{h:02d}:{mi:02d}:{s:02d}{f}Z"


# ----------------------------------------------------------------------------- stable "random"

def stable_int(*parts):
    """A 64-bit integer derived from `parts` (same parts, same number, on every run)."""
    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big")


def stable_hex(n, *parts):
    return hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=(n + 1) // 2).hexdigest()[:n]


def invented_apple_sub(subject):
    """A stable Apple user id of the observed shape `001437.<32 hex>.1204` for a subject."""
    return f"001437.{stable_hex(32, 'apple-sub', subject)}.1204"


def invented_numeric_id(subject, provider, digits=21):
    n = stable_int("provider-id", provider, subject) % (9 * 10 ** (digits - 1))
    return str(10 ** (digits - 1) + n)


def federated_id(provider, raw_id):
    """The `federatedId` a signInWithIdp response gives for a provider's raw id."""
    if provider == "google.com":
        return f"https://accounts.google.com/{raw_id}"
    if provider == "facebook.com":
        return f"http://facebook.com/{raw_id}"
    return raw_id                                   # apple.com: the Apple user id itself


_B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def fake_token(kind, *parts):
    """A short, clearly fake, JWT-looking id token: the logs only need to show one was sent."""
    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=24).digest()
    tail = "".join(_B64URL[b & 63] for b in h)
    return f"eyJhbGciOiJSUzI1NiIsImtpZCI6I.{kind}.{tail}"


# -------------------------------------------------------------------------------- user agents

APP_VERSIONS = {"com.sparrownotes.app": "4.2.1", "com.sparrownotes.recipes": "2.0.3"}
IOS_DEVICES = (("iPhone", "18.5", "iPhone15_2"), ("iPhone", "18.4.1", "iPhone14_5"),
               ("iPhone", "17.6.1", "iPhone13_2"), ("iPhone", "18.5", "iPhone16_1"),
               ("iPad", "18.3.2", "iPad13_18"), ("iPhone", "18.6", "iPhone17_3"))
WEB_AGENTS = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.5 Safari/605.1.15,gzip(gfe)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/138.0.0.0 Safari/537.36,gzip(gfe)",
)
ADMIN_AGENT = "Node/Admin/13.5.0,gzip(gfe)"


def ios_user_agent(app, device_key, version=None):
    """The user agent the Firebase iOS SDK sends; it names the app's bundle id and version."""
    platform, os_version, hw = IOS_DEVICES[stable_int("device", device_key) % len(IOS_DEVICES)]
    version = version or APP_VERSIONS.get(app, "1.0.0")
    return f"FirebaseAuth.iOS/11.6.0 {app}/{version} {platform}/{os_version} hw/{hw},gzip(gfe)"


def web_user_agent(device_key):
    return WEB_AGENTS[stable_int("web", device_key) % len(WEB_AGENTS)]


def admin_user_agent(app=None):
    """The Admin SDK's user agent. A backend that tags its requests with the app it serves adds
    `<bundle id>/<version>`; without it the entry names no app."""
    if app is None:
        return ADMIN_AGENT
    return f"sparrow-backend {app}/{APP_VERSIONS.get(app, '1.0.0')} {ADMIN_AGENT}"


def client_ip(key):
    n = stable_int("ip", key)
    block = ("198.51.100", "203.0.113", "192.0.2")[n % 3]
    return f"{block}.{(n >> 8) % 250 + 2}"


BACKEND_IP = "34.118.72.19"


def admin_principal(project_id):
    return f"firebase-adminsdk-q7x2m@{project_id}.iam.gserviceaccount.com"


# ------------------------------------------------------------------------------ cloud entries

def full_method(method):
    return f"google.cloud.identitytoolkit.v1.{SERVICE[method]}.{method}"


def _message_type(method, suffix):
    return f"type.googleapis.com/google.cloud.identitytoolkit.v1.{method}{suffix}"


class CloudLog:
    """Builds LogEntry dicts of the two Identity Platform log streams.

    detail="full" gives entries shaped and sized like real ones (~1.5 KB: names, photo URLs, the
    IdP's claims in rawUserInfo, request attributes, redacted tokens); detail="lean" keeps the
    whole envelope but drops those extras (~1.15 KB)."""

    def __init__(self, project_id=PROJECT_ID, detail="full"):
        self.project = project_id
        self.full = detail == "full"
        self.activity_log = f"projects/{project_id}/logs/{IDENTITY_TOOLKIT}%2Frequests"
        self.audit_log = f"projects/{project_id}/logs/cloudaudit.googleapis.com%2Fdata_access"
        self.principal = admin_principal(project_id)
        self.resource = {"type": "identitytoolkit_project", "labels": {"project_id": project_id}}

    # envelopes ---------------------------------------------------------------------------------

    def _receive(self, insert_id, ns):
        return rfc3339(ns + (stable_int("rx", insert_id) % 900_000 + 80_000) * 1000, 6)

    def activity(self, insert_id, ns, method, ua, request, response, *, ip=None, status=None,
                 severity=None):
        """A user-activity entry: RequestLog in jsonPayload."""
        payload = {"@type": REQUEST_LOG_TYPE, "methodName": full_method(method)}
        if status is not None:
            payload["status"] = status
        payload["requestMetadata"] = {"callerIp": ip or client_ip(insert_id),
                                      "callerSuppliedUserAgent": ua}
        req = {"@type": _message_type(method, "Request")}
        req.update(request)
        payload["request"] = req
        if response is not None:
            resp = {"@type": _message_type(method, "Response")}
            resp.update(response)
            payload["response"] = resp
        return {"insertId": insert_id, "jsonPayload": payload, "resource": self.resource,
                "timestamp": rfc3339(ns),
                "severity": severity or ("ERROR" if status else "INFO"),
                "logName": self.activity_log, "receiveTimestamp": self._receive(insert_id, ns)}

    def audit(self, insert_id, ns, method, ua, request, response, *, status=None, principal=None):
        """A Data Access audit entry: AuditLog in protoPayload (Admin SDK, CLI, console)."""
        ts = rfc3339(ns)
        permission, ptype = PERMISSION[method]
        fm = full_method(method)
        meta = {"callerIp": BACKEND_IP, "callerSuppliedUserAgent": ua}
        if self.full:
            meta["requestAttributes"] = {"time": ts, "auth": {}}
            meta["destinationAttributes"] = {}
        payload = {"@type": AUDIT_LOG_TYPE, "status": status or {},
                   "authenticationInfo": {"principalEmail": principal or self.principal},
                   "requestMetadata": meta, "serviceName": IDENTITY_TOOLKIT, "methodName": fm,
                   "authorizationInfo": [{"resource": f"projects/{self.project}",
                                          "permission": permission, "granted": True,
                                          "resourceAttributes": {}, "permissionType": ptype}],
                   "resourceName": f"projects/{self.project}"}
        req = {"@type": _message_type(method, "Request")}
        req.update(request)
        req["targetProjectId"] = self.project
        payload["request"] = req
        resp = {"@type": _message_type(method, "Response")}
        resp.update(response or {})
        payload["response"] = resp
        return {"protoPayload": payload, "insertId": insert_id,
                "resource": {"type": "audited_resource",
                             "labels": {"service": IDENTITY_TOOLKIT, "method": fm,
                                        "project_id": self.project}},
                "timestamp": ts, "severity": "INFO", "logName": self.audit_log,
                "receiveTimestamp": self._receive(insert_id, ns)}

    # account changes (what relaylint maps) -------------------------------------------------------

    def _tokens(self, insert_id, response):
        if self.full:
            response["idToken"] = "[REDACTED]"
            response["refreshToken"] = "[REDACTED]"
            response["expiresIn"] = "3600"

    def sign_up(self, insert_id, ns, uid, ua, email=None, display_name=None):
        """SignUp: a password account when an email is given, else an anonymous one."""
        request = {"returnSecureToken": True}
        response = {"kind": "identitytoolkit#SignupNewUserResponse", "localId": uid}
        if email is not None:
            request = {"email": email, "password": "[REDACTED]", "returnSecureToken": True}
            response["email"] = email
        if display_name and self.full:
            request["displayName"] = display_name
            response["displayName"] = display_name
        self._tokens(insert_id, response)
        return self.activity(insert_id, ns, "SignUp", ua, request, response)

    def sign_in_idp(self, insert_id, ns, uid, ua, provider, *, new_user=False, link=False,
                    email=None, fed_id=None, is_private_email=MISSING, aud=None, display_name=None,
                    photo_url=None):
        """SignInWithIdp: account.created (new_user), identity.linked (link: the request carries
        the signed-in user's idToken) or signin."""
        request = {"requestUri": "http://localhost", "returnSecureToken": True,
                   "returnIdpCredential": True}
        if self.full:
            request["postBody"] = (f"id_token=[REDACTED]&providerId={provider}"
                                   + ("&nonce=[REDACTED]" if provider == "apple.com" else ""))
        if link:
            request["idToken"] = fake_token("link", insert_id)
        response = {"kind": "identitytoolkit#VerifyAssertionResponse", "providerId": provider,
                    "localId": uid}
        if email is not None:
            response["email"] = email
            response["emailVerified"] = True
        if fed_id is not None:
            response["federatedId"] = fed_id
        if display_name and self.full:
            first, _, last = display_name.partition(" ")
            response.update(displayName=display_name, fullName=display_name, firstName=first)
            if last:
                response["lastName"] = last
        if photo_url and self.full:
            response["photoUrl"] = photo_url
        raw = self._raw_user_info(insert_id, ns, provider, email, fed_id, is_private_email, aud,
                                  display_name, photo_url)
        if raw is not None:
            response["rawUserInfo"] = json.dumps(raw, separators=(",", ":"), ensure_ascii=False)
        if new_user:
            response["isNewUser"] = True
        self._tokens(insert_id, response)
        if self.full:
            response["oauthIdToken"] = "[REDACTED]"
        return self.activity(insert_id, ns, "SignInWithIdp", ua, request, response)

    def _raw_user_info(self, insert_id, ns, provider, email, fed_id, is_private_email, aud,
                       display_name, photo_url):
        """The IdP's claims, as the JSON string Identity Platform puts in rawUserInfo."""
        if provider == "apple.com":
            iat = ns // NS - 1
            raw = {"iss": APPLE_ISSUER}
            if self.full:
                raw.update(aud=aud or "com.sparrownotes.app", exp=iat + 86400, iat=iat)
            if fed_id is not None:
                raw["sub"] = fed_id
            if self.full:
                raw["c_hash"] = stable_hex(22, "c_hash", insert_id)
            if email is not None:
                raw["email"] = email
                raw["email_verified"] = True
            if is_private_email is not MISSING:
                raw["is_private_email"] = is_private_email
            if self.full:
                raw.update(auth_time=iat, nonce_supported=True)
            return raw
        if is_private_email is not MISSING:
            raise Inexpressible(f"is_private_email on a {provider} sign-in")
        if not self.full:
            return None
        if provider == "google.com":
            raw = {"name": display_name or "", "granted_scopes": "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
                   "id": (fed_id or "").rsplit("/", 1)[-1], "verified_email": True}
            if display_name:
                first, _, last = display_name.partition(" ")
                raw.update(given_name=first, family_name=last)
            if email is not None:
                raw["email"] = email
            if photo_url:
                raw["picture"] = photo_url
            return raw
        if provider == "facebook.com":
            raw = {"name": display_name or "", "id": (fed_id or "").rsplit("/", 1)[-1]}
            if email is not None:
                raw["email"] = email
            return raw
        return None

    def sign_in_password(self, insert_id, ns, uid, ua, email, *, link=False, email_link=False,
                         fed_id=None, display_name=None):
        """SignInWithPassword, or SignInWithEmailLink (email_link; with link=True the way a
        signed-in user adds an email credential)."""
        method = "SignInWithEmailLink" if email_link else "SignInWithPassword"
        if email_link:
            request = {"email": email, "oobCode": "[REDACTED]"}
        else:
            request = {"email": email, "password": "[REDACTED]", "returnSecureToken": True}
        if link:
            request["idToken"] = fake_token("link", insert_id)
        response = {"kind": "identitytoolkit#VerifyPasswordResponse" if not email_link
                    else "identitytoolkit#EmailLinkSigninResponse", "localId": uid}
        if email is not None:
            response["email"] = email
        if fed_id is not None:
            response["federatedId"] = fed_id
        if display_name and self.full:
            response["displayName"] = display_name
        response["registered"] = True
        self._tokens(insert_id, response)
        return self.activity(insert_id, ns, method, ua, request, response)

    def sign_in_phone(self, insert_id, ns, uid, ua, phone, *, new_user=False, link=False):
        request = {"sessionInfo": "[REDACTED]", "code": "[REDACTED]"}
        if link:
            request["idToken"] = fake_token("link", insert_id)
            if self.full:
                request["operation"] = "VERIFY_AND_CHANGE"
        response = {"localId": uid, "phoneNumber": phone}
        if new_user:
            response["isNewUser"] = True
        self._tokens(insert_id, response)
        return self.activity(insert_id, ns, "SignInWithPhoneNumber", ua, request, response)

    def sign_in_game_center(self, insert_id, ns, uid, ua, player_id, *, new_user=False, link=False,
                            display_name=None, bundle_id=None):
        request = {"playerId": player_id,
                   "publicKeyUrl": "https://static.gc.apple.com/public-key/gc-prod-10.cer",
                   "signature": "[REDACTED]", "salt": "[REDACTED]", "timestamp": str(ns // 1_000_000)}
        if bundle_id:
            request["bundleId"] = bundle_id
        if link:
            request["idToken"] = fake_token("link", insert_id)
        response = {"localId": uid, "playerId": player_id}
        if display_name and self.full:
            response["displayName"] = display_name
        if new_user:
            response["isNewUser"] = True
        self._tokens(insert_id, response)
        return self.activity(insert_id, ns, "SignInWithGameCenter", ua, request, response)

    def set_account_info(self, insert_id, ns, uid, ua, *, admin, delete_providers=(),
                         link_provider_user_info=(), email=None, phone=None, extra=None):
        """SetAccountInfo. admin=True: an Admin SDK updateUser (audit log, request.localId);
        else the user's own SDK call (activity log, request.idToken, response.localId)."""
        request = {} if admin else {"idToken": fake_token("user", insert_id)}
        if admin:
            request["localId"] = uid
        if email is not None:
            request["email"] = email
        if phone is not None:
            request["phoneNumber"] = phone
        if delete_providers:
            request["deleteProvider"] = list(delete_providers)
        if link_provider_user_info:
            request["linkProviderUserInfo"] = [dict(p) for p in link_provider_user_info]
        if extra:
            request.update(extra)
        if not admin:
            request["returnSecureToken"] = True
        response = {"localId": uid}
        if not admin:
            response["kind"] = "identitytoolkit#SetAccountInfoResponse"
            if email is not None:
                response["email"] = email
            self._tokens(insert_id, response)
            return self.activity(insert_id, ns, "SetAccountInfo", ua, request, response)
        return self.audit(insert_id, ns, "SetAccountInfo", ua, request, response)

    def delete_account(self, insert_id, ns, uid, ua, *, admin):
        """DeleteAccount: by the user (activity log) or by the Admin SDK (audit log)."""
        if admin:
            return self.audit(insert_id, ns, "DeleteAccount", ua, {"localId": uid}, {})
        request = {"idToken": fake_token("user", insert_id), "localId": uid}
        return self.activity(insert_id, ns, "DeleteAccount", ua, request,
                             {"kind": "identitytoolkit#DeleteAccountResponse"})

    def batch_delete_accounts(self, insert_id, ns, uids, ua):
        return self.audit(insert_id, ns, "BatchDeleteAccounts", ua,
                          {"localIds": list(uids), "force": True}, {})

    # records relaylint skips ---------------------------------------------------------------------

    def get_account_info(self, insert_id, ns, uid, ua, *, admin):
        if admin:
            return self.audit(insert_id, ns, "GetAccountInfo", ua, {"localId": [uid]}, {})
        return self.activity(insert_id, ns, "GetAccountInfo", ua,
                             {"idToken": fake_token("user", insert_id)},
                             {"kind": "identitytoolkit#GetAccountInfoResponse"})

    def failed_sign_in_password(self, insert_id, ns, ua, email, code=3,
                                message="INVALID_LOGIN_CREDENTIALS"):
        return self.activity(insert_id, ns, "SignInWithPassword", ua,
                             {"email": email, "password": "[REDACTED]", "returnSecureToken": True},
                             None, status={"code": code, "message": message})

    def get_oob_code(self, insert_id, ns, ua, email, request_type="PASSWORD_RESET"):
        return self.activity(insert_id, ns, "GetOobCode", ua,
                             {"requestType": request_type, "email": email},
                             {"kind": "identitytoolkit#GetOobConfirmationCodeResponse",
                              "email": email})

    def create_auth_uri(self, insert_id, ns, ua, identifier):
        return self.activity(insert_id, ns, "CreateAuthUri", ua,
                             {"identifier": identifier, "continueUri": "http://localhost"},
                             {"kind": "identitytoolkit#CreateAuthUriResponse", "registered": True,
                              "sessionId": stable_hex(27, "session", insert_id)})

    def download_account(self, insert_id, ns, ua, principal, max_results=1000):
        return self.audit(insert_id, ns, "DownloadAccount", ua, {"maxResults": max_results}, {},
                          principal=principal)


def sink_line(entry):
    """One LogEntry as a line of a Cloud Storage sink file (compact JSON, no newline)."""
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def gcloud_entry_text(entry):
    """One LogEntry as an element of `gcloud logging read --format=json` output (indented by 2,
    keys sorted, as gcloud prints them), without the separating comma."""
    text = json.dumps(entry, ensure_ascii=False, indent=2, sort_keys=True)
    return "  " + text.replace("\n", "\n  ")


def gcloud_json(entries):
    """A whole `gcloud logging read --format=json` output for `entries` (in the given order)."""
    if not entries:
        return "[]\n"
    return "[\n" + ",\n".join(gcloud_entry_text(e) for e in entries) + "\n]\n"


# ------------------------------------------------------------------------------ Apple: JWS, JWKS

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def apple_claims(jti, event_type, sub, event_ms, aud, *, email=None, is_private_email=MISSING,
                 iat=None):
    """The claims of one Sign in with Apple server-to-server notification; `events` is a JSON
    string, as in Apple's real traffic. exp = iat + 86400 (observed)."""
    if not isinstance(event_ms, int):
        raise Inexpressible("event_time must be whole milliseconds")
    events = {"type": event_type, "sub": sub, "event_time": event_ms}
    if email is not None:
        events["email"] = email
    if is_private_email is not MISSING:
        events["is_private_email"] = is_private_email
    if iat is None:
        iat = event_ms // 1000 + 1 + stable_int("iat", jti) % 3
    return {"iss": APPLE_ISSUER, "aud": aud, "iat": iat, "exp": iat + 86400, "jti": jti,
            "events": json.dumps(events, separators=(",", ":"), ensure_ascii=False)}


def sign_rs256(claims, private_key, kid=TEST_KID):
    """Compact JWS, header {"alg":"RS256","kid":kid}, RSASSA-PKCS1-v1_5 SHA-256 (deterministic)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    signing_input = b64url(_compact({"alg": "RS256", "kid": kid})) + "." + b64url(_compact(claims))
    signature = private_key.sign(signing_input.encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
    return signing_input + "." + b64url(signature)


def apple_body(claims, private_key, kid=TEST_KID):
    """The body Apple POSTs: {"payload": "<JWS>"}."""
    return {"payload": sign_rs256(claims, private_key, kid)}


def apple_body_line(claims, private_key, kid=TEST_KID):
    return json.dumps(apple_body(claims, private_key, kid), separators=(",", ":"))


def decode_jws(token):
    """(header, claims) of a compact JWS, unverified."""
    h, c, _ = token.split(".")
    pad = lambda s: s + "=" * (-len(s) % 4)
    return (json.loads(base64.urlsafe_b64decode(pad(h))), json.loads(base64.urlsafe_b64decode(pad(c))))


def _int_b64url(n):
    return b64url(n.to_bytes((n.bit_length() + 7) // 8, "big"))


def jwks(public_key, kid=TEST_KID):
    """A JSON Web Key Set like https://appleid.apple.com/auth/keys, with this one RSA key."""
    numbers = public_key.public_numbers()
    return {"keys": [{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                      "n": _int_b64url(numbers.n), "e": _int_b64url(numbers.e)}]}


def jwks_text(public_key, kid=TEST_KID):
    return json.dumps(jwks(public_key, kid), indent=2) + "\n"


def load_private_key(path):
    from cryptography.hazmat.primitives import serialization
    with open(path, "rb") as f:
        data = f.read()
    start = data.index(b"-----BEGIN")              # the file may start with a comment
    return serialization.load_pem_private_key(data[start:], password=None)


def generate_private_key():
    from cryptography.hazmat.primitives.asymmetric import rsa
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def private_key_pem(private_key):
    from cryptography.hazmat.primitives import serialization
    return private_key.private_bytes(serialization.Encoding.PEM,
                                     serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode("ascii")


# ------------------------------------------------------------------------------ backend log

CONSENT_PURPOSE = {"link.email": "email_link", "link.phone": "phone_link", "link.social": "social_link"}
DELETION_CHANNELS = ("in_app", "web", "email", "support")
INITIATORS = ("user", "admin", "apple", "system")


def backend_record(request_id, ts, uid, app, action, **fields):
    """One line of the app backend's JSON log (key order as a pino/structlog logger writes)."""
    rec = {"ts": ts, "level": "info", "service": "sparrow-api", "request_id": request_id}
    if uid is not None:
        rec["uid"] = uid
    if app is not None:
        rec["app"] = app
    rec["action"] = action
    rec.update(fields)
    return rec


def backend_line(record):
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- native event → one record

class Context:
    """What converting native events needs beyond the event itself: the project, the accounts
    export (Apple user ids, phone numbers, provider raw ids, names), user agents, and a list of
    notes (category, event id) for everything a record cannot say exactly.

    apple_subs: subject -> Apple user id known from elsewhere (e.g. a native event's value);
    the export's apple.com rawId wins; otherwise a stable id is invented."""

    def __init__(self, project_id=PROJECT_ID, users=(), apple_subs=None, detail="full",
                 private_key=None, kid=TEST_KID, relay_address=None):
        self.cloud = CloudLog(project_id, detail)
        self.users = {u["localId"]: u for u in users}
        self.apple_subs = dict(apple_subs or {})
        self.private_key = private_key
        self.kid = kid
        self.notes = []
        self.relay_address = relay_address or {}    # subject -> relay address (for email-* notifications)

    def note(self, category, event_id):
        self.notes.append((category, event_id))

    def user(self, subject):
        return self.users.get(subject, {})

    def apple_sub(self, subject):
        for p in self.user(subject).get("providerUserInfo", []):
            if p.get("providerId") == "apple.com" and p.get("rawId"):
                return p["rawId"]
        sub = self.apple_subs.get(subject)
        if sub is None:
            sub = invented_apple_sub(subject)
            self.apple_subs[subject] = sub
        return sub

    def provider_entry(self, subject, provider):
        for p in self.user(subject).get("providerUserInfo", []):
            if p.get("providerId") == provider:
                return p
        return {}

    def raw_id(self, subject, provider):
        return self.provider_entry(subject, provider).get("rawId") or invented_numeric_id(
            subject, provider, 21 if provider == "google.com" else 16)

    def phone(self, subject):
        return self.user(subject).get("phoneNumber")

    def display_name(self, subject):
        return self.user(subject).get("displayName")

    def photo_url(self, subject, provider):
        return self.provider_entry(subject, provider).get("photoUrl")

    def user_agent(self, app, subject):
        if app is None:
            return web_user_agent(subject)
        return ios_user_agent(app, subject)


def _instant(ev):
    return parse_time(ev["time"])


def cloud_timestamp(ev, ctx):
    """The entry timestamp for a native event's time, noting a changed spelling."""
    ns = _instant(ev)
    ts = rfc3339(ns)
    t = ev["time"]
    if isinstance(t, (int, float)):
        ctx.note("epoch-ms time written as an RFC 3339 timestamp (same instant)", ev["id"])
    elif t != ts:
        if not t.endswith(("Z", "z")):
            ctx.note("UTC offset written as Z (same instant)", ev["id"])
        else:
            ctx.note("fraction digits respelled the way Cloud Logging prints them (same instant)", ev["id"])
    return ns


def _e164(value):
    digits = re.sub(r"\D", "", value)
    return "+" + digits


def event_to_cloud_entry(ev, ctx, *, admin=False):
    """One native account-change event as one Cloud Logging entry (dict). admin=True writes the
    Admin SDK's audit-log form where one exists (deletions, SetAccountInfo)."""
    typ, sub, app, eid = ev["type"], ev["subject"], ev.get("app"), ev["id"]
    ns = cloud_timestamp(ev, ctx)
    ua = admin_user_agent(app) if admin else ctx.user_agent(app, sub)
    cloud = ctx.cloud
    provider, kind = ev.get("provider"), ev.get("kind")
    email, value = ev.get("email"), ev.get("value")
    ipe = ev.get("is_private_email", MISSING)
    name = ctx.display_name(sub)

    def only(*allowed):
        extra = set(ev) - {"id", "time", "subject", "type", "app"} - set(allowed)
        if extra:
            raise Inexpressible(f"{eid}: fields {sorted(extra)} have no place in a {typ} entry")

    if typ == "identity.linked":
        if kind not in ("email", "phone", "provider"):
            raise Inexpressible(f"{eid}: identity.linked of kind {kind!r}")
        if kind == "email" and provider is None:
            # The user's own updateEmail / admin updateUser({email}): SetAccountInfo request.email.
            only("kind", "value")
            if value is None:
                raise Inexpressible(f"{eid}: an email link without an address")
            return cloud.set_account_info(eid, ns, sub, ua, admin=admin, email=value)
        expected = {"email": "password", "phone": "phone"}.get(kind)
        if kind == "phone" and provider is None:
            ctx.note("phone link: `provider: phone` added (signInWithPhoneNumber with the user's idToken)", eid)
            provider = "phone"
        if (expected and provider != expected) or (kind == "provider" and provider in ("password", "phone", None)):
            raise Inexpressible(f"{eid}: kind {kind} with provider {provider!r}")

    if typ not in ("account.created", "signin", "identity.linked"):
        return _cloud_other(ev, ctx, ns, ua, admin, only)

    new_user, link = typ == "account.created", typ == "identity.linked"
    if provider is None:
        raise Inexpressible(f"{eid}: {typ} without a provider")
    if new_user and provider in ("password", "anonymous"):
        only("provider", "email")
        if (provider == "password") != (email is not None):
            raise Inexpressible(f"{eid}: a {provider} sign-up {'with' if email else 'without'} an email")
        return cloud.sign_up(eid, ns, sub, ua, email=email, display_name=name)
    if provider == "password":
        only("provider", "email", "value", "kind")
        if link:
            # Adding an email credential to a signed-in user: signInWithEmailLink with the
            # user's idToken; the password provider's federatedId is the address.
            addr = value if value is not None else email
            if addr is None:
                raise Inexpressible(f"{eid}: an email link without an address")
            if email is None:
                ctx.note("email link: `email` added (the response names the address)", eid)
            if value is None:
                ctx.note("email link: `value` added (federatedId = the address)", eid)
            return cloud.sign_in_password(eid, ns, sub, ua, addr, link=True, email_link=True,
                                          fed_id=addr, display_name=name)
        if value is not None:
            raise Inexpressible(f"{eid}: a password sign-in with a value")
        return cloud.sign_in_password(eid, ns, sub, ua, email, display_name=name)
    if provider == "phone":
        only("provider", "value", "kind")
        phone = value
        if phone is None:
            phone = ctx.phone(sub)
            if phone is None:
                raise Inexpressible(f"{eid}: a phone sign-in without a known number")
            ctx.note("phone sign-in: `value` added (response.phoneNumber, the export's number)", eid)
        elif _e164(phone) != phone:
            ctx.note("phone number written in E.164, the only form the API returns (same digits)", eid)
            phone = _e164(phone)
        return cloud.sign_in_phone(eid, ns, sub, ua, phone, new_user=new_user, link=link)
    if provider == "gc.apple.com":
        only("provider", "value", "kind")
        if value is None:
            raise Inexpressible(f"{eid}: a Game Center sign-in without a player id")
        return cloud.sign_in_game_center(eid, ns, sub, ua, value, new_user=new_user, link=link,
                                         display_name=name, bundle_id=app)
    only("provider", "email", "value", "is_private_email", "kind")
    if provider == "apple.com":
        fed = ctx.apple_sub(sub)
        if value is not None and value != fed:
            raise Inexpressible(f"{eid}: Apple user id {value} differs from the subject's {fed}")
    else:
        fed = value if value is not None else federated_id(provider, ctx.raw_id(sub, provider))
    if value is None:
        ctx.note("sign-up/sign-in: `value` added (response.federatedId: the Apple user id, "
                 "Google's or Facebook's federated id)", eid)
    return cloud.sign_in_idp(eid, ns, sub, ua, provider, new_user=new_user, link=link,
                             email=email, fed_id=fed, is_private_email=ipe, aud=app,
                             display_name=name, photo_url=ctx.photo_url(sub, provider))


def _cloud_other(ev, ctx, ns, ua, admin, only):
    typ, sub, eid, provider = ev["type"], ev["subject"], ev["id"], ev.get("provider")
    cloud = ctx.cloud
    if typ == "identity.unlinked":
        only("kind", "provider", "value")
        if provider is None:
            raise Inexpressible(f"{eid}: an unlink without a provider")
        expected_kind = {"phone": "phone", "password": "email"}.get(provider, "provider")
        if ev.get("kind", expected_kind) != expected_kind:
            raise Inexpressible(f"{eid}: unlink kind {ev.get('kind')} for provider {provider}")
        if "kind" not in ev:
            ctx.note("unlink: `kind` added", eid)
        if "value" in ev:
            ctx.note("unlink: `value` dropped (deleteProvider names only the provider)", eid)
        return cloud.set_account_info(eid, ns, sub, ua, admin=admin, delete_providers=[provider])
    if typ == "account.deleted":
        only("initiator")
        initiator = ev.get("initiator")
        if initiator == ("admin" if admin else "user"):
            return cloud.delete_account(eid, ns, sub, ua, admin=admin)
        raise Inexpressible(f"{eid}: a deletion by {initiator!r} is not "
                            f"{'an admin' if admin else 'a user'} DeleteAccount")
    raise Inexpressible(f"{eid}: {typ} is not in Identity Platform's logs")


def backend_timestamp(ev, ctx):
    t = ev["time"]
    if isinstance(t, (int, float)):
        ctx.note("epoch-ms time written as an RFC 3339 timestamp (same instant)", ev["id"])
        return rfc3339(parse_time(t))
    parse_time(t)
    return t                                          # RFC 3339 spelling kept verbatim


def event_to_backend_record(ev, ctx):
    """One native event as one backend log record (dict), or Inexpressible."""
    typ, eid = ev["type"], ev["id"]
    ts = backend_timestamp(ev, ctx)
    args = (eid, ts, ev["subject"], ev.get("app"))
    extra = set(ev) - {"id", "time", "subject", "type", "app"}

    def only(*allowed):
        if extra - set(allowed):
            raise Inexpressible(f"{eid}: fields {sorted(extra - set(allowed))} have no place in the backend's {typ}")

    if typ in ("consent.granted", "consent.withdrawn"):
        only("scope")
        purpose = CONSENT_PURPOSE.get(ev.get("scope"))
        if purpose is None:
            raise Inexpressible(f"{eid}: consent scope {ev.get('scope')!r}")
        action = "consent_given" if typ == "consent.granted" else "consent_withdrawn"
        return backend_record(*args, action, purpose=purpose)
    if typ == "token.revoked":
        only("provider", "status")
        if ev.get("provider") != "apple.com":
            raise Inexpressible(f"{eid}: token revocation for {ev.get('provider')!r}")
        status = ev.get("status")
        if status is None:
            ctx.note("token revocation without `status`: written as result ok, read back as status succeeded (the default)", eid)
        if status not in (None, "succeeded", "failed"):
            raise Inexpressible(f"{eid}: status {status!r}")
        if status == "failed":
            return backend_record(*args, "apple_token_revoked", result="error", error="invalid_grant",
                                  http_status=400)
        return backend_record(*args, "apple_token_revoked", result="ok", http_status=200)
    if typ == "account.deletion_requested":
        only("channel")
        if ev.get("channel") not in DELETION_CHANNELS:
            raise Inexpressible(f"{eid}: channel {ev.get('channel')!r}")
        return backend_record(*args, "deletion_requested", via=ev["channel"])
    if typ == "account.deleted":
        only("initiator")
        if ev.get("initiator") not in INITIATORS:
            raise Inexpressible(f"{eid}: initiator {ev.get('initiator')!r}")
        return backend_record(*args, "account_deleted", by=ev["initiator"])
    if typ == "data.deleted":
        only("store")
        if "store" not in ev:
            raise Inexpressible(f"{eid}: no store")
        return backend_record(*args, "data_erased", store=ev["store"])
    if typ == "email.sent":
        only("to", "from")
        return backend_record(*args, "mail_sent", to=ev["to"], **{"from": ev["from"]})
    raise Inexpressible(f"{eid}: {typ} is not one of the backend's actions")


def event_to_apple_claims(ev, ctx):
    """One native apple.notification as notification claims (dict), or Inexpressible."""
    eid = ev["id"]
    if ev["type"] != "apple.notification":
        raise Inexpressible(f"{eid}: not an apple.notification")
    extra = set(ev) - {"id", "time", "subject", "type", "app", "event", "email", "is_private_email"}
    if extra:
        raise Inexpressible(f"{eid}: fields {sorted(extra)} have no place in a notification")
    # `aud` names the Sign in with Apple client; relaylint's mapping gives a notification no app.
    aud = ev.get("app") or "com.sparrownotes.app"
    if ev.get("app") is not None:
        ctx.note("notification: `app` written as `aud`, which relaylint does not read (no app)", eid)
    ns = _instant(ev)
    if ns % 1_000_000:
        raise Inexpressible(f"{eid}: event_time holds whole milliseconds only")
    if not isinstance(ev["time"], int):
        ctx.note("time written as event_time milliseconds (same instant)", eid)
    email = ev.get("email")
    ipe = ev.get("is_private_email", MISSING)
    if ev["event"] in ("email-disabled", "email-enabled") and email is None:
        relay = ctx.relay_address.get(ev["subject"])
        if relay is not None:
            email = relay
            ctx.note("email-disabled/enabled: `email` (the relay address) and `is_private_email` "
                     "added, as Apple sends them", eid)
            if ipe is MISSING:
                ipe = "true"
    return apple_claims(eid, ev["event"], ctx.apple_sub(ev["subject"]), ns // 1_000_000, aud,
                        email=email, is_private_email=ipe)


def classify(ev):
    """Where a native event goes in the real formats: "activity" (Identity Platform activity
    log), "audit" (Cloud Audit Logs), "apple" (notifications) or "backend"."""
    typ = ev["type"]
    if typ == "apple.notification":
        return "apple"
    if typ == "account.deleted":
        return {"user": "activity", "admin": "audit"}.get(ev.get("initiator"), "backend")
    if typ in ("account.created", "signin", "identity.linked", "identity.unlinked"):
        return "activity"
    return "backend"


def convert_event(ev, ctx):
    """(sink, record) for one native event: sink as in `classify`; record a LogEntry dict, an
    Apple POST body dict or a backend record dict. Raises Inexpressible."""
    sink = classify(ev)
    if sink == "activity":
        return sink, event_to_cloud_entry(ev, ctx, admin=False)
    if sink == "audit":
        return sink, event_to_cloud_entry(ev, ctx, admin=True)
    if sink == "apple":
        claims = event_to_apple_claims(ev, ctx)
        if ctx.private_key is None:
            raise Inexpressible("no private key to sign notifications with")
        return sink, apple_body(claims, ctx.private_key, ctx.kid)
    return sink, event_to_backend_record(ev, ctx)
