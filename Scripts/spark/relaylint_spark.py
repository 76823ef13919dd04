#!/usr/bin/env python3
"""relaylint as the map step of Apache Spark: partition by subject, check each partition in the
executors, merge the partials on the driver.

    python3 Scripts/spark/relaylint_spark.py --relaylint .build/debug/relaylint --partitions 3 \\
        --config Examples/.relaylint.yml --manifest Examples/manifest.yml \\
        --accounts Examples/accounts.json --events Examples/events.jsonl \\
        --format html --output audit.html --report json=relaylint.json

Locally it runs in `local[2]`; under `spark-submit` (Dataproc, Kubernetes, YARN) the cluster's
master is used. What it does, and why each step is there:

1. Spark reads the data: every log (JSON Lines) with Hadoop's TextInputFormat split on "\\n" only
   (Spark's own line reader also splits on a lone "\\r", which would shift relaylint's line
   numbers), numbered with zipWithIndex; every Firebase export (`{"users": [...]}`) with
   binaryFiles, one task per export, which finds each user's byte range, line and column.
2. A UDF computes the partition of each record: FNV-1a 64 of the UTF-8 subject id (`subject` of
   an event, `localId` of a user), modulo N, as `relaylint split` and `check --partition` do; a
   record without one goes to partition 1. `repartitionAndSortWithinPartitions` (partitionBy plus
   a sort) gives Spark partition K-1 to relaylint partition K, in input and line order: events of
   equal time are ordered by their place in the input, so order within a partition matters.
3. The end of all the data (`--data-end`, the latest event time) is a Spark aggregate.
4. In the executors (mapPartitionsWithIndex) each partition's records are written back at their
   original line and column (blank lines and spaces elsewhere, as `split` does, so findings point
   at the original files) and `relaylint check --partition K/N --data-end T` writes a partial.
5. The driver collects the partials and runs `relaylint merge --sources`, which names the
   original files (by the paths given here, with their SHA-256) and renders every format.

The merged report is byte for byte the report of one `relaylint check` over the same files with
the same paths and options (Scripts/check-spark.sh asserts it).
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------------------------
# The partition function and the time arithmetic, as relaylint defines them. These run in the
# executors; they use only the standard library.

_MASK64 = (1 << 64) - 1


def fnv1a64(text):
    """FNV-1a 64 of the UTF-8 bytes (Sources/RelayLintCore/Engine/Storage/FNV1a.swift)."""
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & _MASK64
    return value


def partition_slot(subject, count):
    """0-based partition of a subject (Shard.slot); a record without a subject is in slot 0."""
    return 0 if subject is None else fnv1a64(subject) % count


_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?([Zz]|[+-][0-9]{2}:[0-9]{2})")
_EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
_FIRST_SECOND = -62135596800  # 0001-01-01T00:00:00Z
_END_SECOND = 253402300800  # 10000-01-01T00:00:00Z


def parse_rfc3339(text):
    """(seconds, nanoseconds) of `YYYY-MM-DDTHH:MM:SS[.1-9 digits](Z|±HH:MM)`, else None
    (Timestamp.parse(rfc3339:))."""
    match = _RFC3339.fullmatch(text)
    if not match:
        return None
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction, zone = match.group(7), match.group(8)
    if fraction is not None and len(fraction) > 9:
        return None
    if hour >= 24 or minute >= 60 or second >= 60 or year < 1:
        return None
    try:
        days = datetime.date(year, month, day).toordinal() - _EPOCH_ORDINAL
    except ValueError:
        return None
    offset = 0
    if zone not in ("Z", "z"):
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours >= 24 or minutes >= 60:
            return None
        offset = (hours * 3600 + minutes * 60) * (-1 if zone[0] == "-" else 1)
    nanoseconds = int(fraction.ljust(9, "0")) if fraction else 0
    return days * 86400 + hour * 3600 + minute * 60 + second - offset, nanoseconds


_NUMBER = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")


def parse_epoch_milliseconds(text):
    """(seconds, nanoseconds) of a JSON number of epoch milliseconds, exactly from its decimal
    text, sub-nanosecond digits dropped towards zero (Timestamp(epochMilliseconds:))."""
    match = _NUMBER.fullmatch(text)
    if not match or not (match.group(2) or match.group(3)):
        return None
    sign, whole, fraction, power = match.group(1), match.group(2), match.group(3) or "", match.group(4)
    exponent = -len(fraction) + max(min(int(power or "0"), 1 << 40), -(1 << 40))
    digits = (whole + fraction).lstrip("0")
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    if len(digits) + exponent > 15:
        return None
    scale = exponent + 6  # to nanoseconds
    if not digits:
        total = 0
    elif scale >= 0:
        total = int(digits) * 10**scale
    elif -scale > len(digits):
        total = 0
    else:
        total = int(digits) // 10**-scale
    seconds, nanoseconds = divmod(total, 1_000_000_000)
    if sign == "-" and total:
        seconds, nanoseconds = (-seconds, 0) if nanoseconds == 0 else (-seconds - 1, 1_000_000_000 - nanoseconds)
    if not _FIRST_SECOND <= seconds < _END_SECOND:
        return None
    return seconds, nanoseconds


def describe_time(seconds, nanoseconds):
    """RFC 3339 in UTC with the shortest exact fraction (Timestamp.description)."""
    days, second_of_day = divmod(seconds, 86400)
    date = datetime.date.fromordinal(days + _EPOCH_ORDINAL)
    text = "%04d-%02d-%02dT%02d:%02d:%02d" % (
        date.year, date.month, date.day, second_of_day // 3600, second_of_day // 60 % 60, second_of_day % 60)
    if nanoseconds:
        text += "." + ("%09d" % nanoseconds).rstrip("0")
    return text + "Z"


# ---------------------------------------------------------------------------------------------
# Reading records as relaylint's strict JSON parser does (a duplicate key, NaN or an unpaired
# surrogate makes a record invalid, and an invalid record has no subject).


class _Number:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def _no_duplicates(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError("duplicate key")
        seen.add(key)
    return dict(pairs)


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def strict_decoder():
    """Made where it is used: a decoder cannot be pickled into the executors."""
    return json.JSONDecoder(
        object_pairs_hook=_no_duplicates, parse_float=_Number, parse_int=_Number, parse_constant=_reject_constant)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def strict_object(text, decoder):
    """The JSON object a record holds, or None when relaylint would find it invalid or no object."""
    try:
        value = decoder.decode(text)
        if _SURROGATE_ESCAPE.search(text):
            json.dumps(value, ensure_ascii=False, default=lambda number: 0).encode("utf-8")
    except (ValueError, RecursionError, UnicodeEncodeError):
        return None
    return value if isinstance(value, dict) else None


def _string(value):
    return value if isinstance(value, str) else None


# The records of every input, as one DataFrame: where a record goes back (input, position, role,
# line, column), whose it is (subject, or a fixed partition for an export's frame), its bytes and,
# for events, its time.
PREFIX, RECORD, SUFFIX = 0, 1, 2


def event_rows(input_index, numbered_lines):
    """A log's records from (line, 0-based line number): blank lines belong to no partition."""
    decoder = strict_decoder()
    for text, index in numbered_lines:
        if not text.strip(" \t\r"):
            continue
        line = index + 1
        value = strict_object(text[1:] if line == 1 and text.startswith("\ufeff") else text, decoder)
        subject = _string(value.get("subject")) if value is not None else None
        when = None
        if subject is not None:
            time = value.get("time")
            if isinstance(time, str):
                when = parse_rfc3339(time)
            elif isinstance(time, _Number):
                when = parse_epoch_milliseconds(time.text)
        yield (input_index, line, RECORD, line, 0, subject, None, text.encode("utf-8"),
               when[0] if when else None, when[1] if when else None)


_WHITESPACE = re.compile(r"[ \t\n\r]*")


class NotAnExport(Exception):
    pass


def _users_array(text):
    """The character ranges of the elements of the top-level `users` array, or NotAnExport."""
    def skip(i):
        return _WHITESPACE.match(text, i).end()

    def expect(i, character):
        if text[i:i + 1] != character:
            raise NotAnExport("expected '%s' at character %d" % (character, i))
        return skip(i + 1)

    lenient = json.JSONDecoder()
    ranges = None
    i = expect(skip(1 if text.startswith("\ufeff") else 0), "{")
    if text[i:i + 1] == "}":
        raise NotAnExport("no users")
    while True:
        if text[i:i + 1] != '"':
            raise NotAnExport("expected a key at character %d" % i)
        key, i = json.decoder.scanstring(text, i + 1)
        i = expect(skip(i), ":")
        if key == "users" and ranges is None and text[i:i + 1] == "[":
            ranges = []
            i = skip(i + 1)
            if text[i:i + 1] == "]":
                i += 1
            else:
                while True:
                    _, end = lenient.raw_decode(text, i)
                    ranges.append((i, end))
                    i = skip(end)
                    if text[i:i + 1] == ",":
                        i = skip(i + 1)
                        continue
                    i = expect(i, "]")
                    break
        else:
            _, i = lenient.raw_decode(text, i)
        i = skip(i)
        if text[i:i + 1] == ",":
            i = skip(i + 1)
            continue
        expect(i, "}")
        break
    if ranges is None:
        raise NotAnExport("no users array")
    return ranges


def export_rows(input_index, path, data, count):
    """An export's users, each with its byte range, line and column; and every partition's copy
    of what stands before the first user and after the last (`{"users": [` and `]}`)."""
    try:
        text = data.decode("utf-8")
        ranges = _users_array(text)
    except (UnicodeDecodeError, NotAnExport, ValueError, RecursionError) as error:
        raise RuntimeError("%s: not a Firebase JSON export ({\"users\": [...]}): %s" % (path, error))
    char, byte, line, line_start = 0, 0, 1, 0

    def advance(to):
        nonlocal char, byte, line, line_start
        piece = text[char:to].encode("utf-8")
        breaks = piece.count(b"\n")
        if breaks:
            line += breaks
            line_start = byte + piece.rindex(b"\n") + 1
        byte += len(piece)
        char = to

    decoder = strict_decoder()
    first = None
    for start, end in ranges:
        advance(start)
        start_byte, start_line, start_column = byte, line, byte - line_start
        if first is None:
            first = start_byte
        advance(end)
        value = strict_object(text[start:end], decoder)
        subject = _string(value.get("localId")) if value is not None else None
        yield (input_index, start_byte, RECORD, start_line, start_column, subject, None, data[start_byte:byte], None, None)
    prefix = data[:first] if first is not None else b""
    for slot in range(count):
        yield (input_index, 0, PREFIX, 1, 0, None, slot, prefix, None, None)
        yield (input_index, byte, SUFFIX, line, byte - line_start, None, slot, data[byte:], None, None)


# ---------------------------------------------------------------------------------------------
# The executors' side: write a partition's files, run relaylint on them.


def _place_file(given, driver_path, workdir):
    """Where this machine has a file the driver was given (`--relaylint`, `--config`, …): the
    driver's own path (local mode, shared disks), the working directory (YARN and Dataproc put
    `--files` there), or SparkFiles (`SparkContext.addFile`)."""
    from pyspark import SparkFiles

    name = os.path.basename(given.rstrip("/"))
    for candidate in (driver_path, os.path.join(os.getcwd(), name)):
        if candidate and os.path.exists(candidate):
            return candidate
    try:
        candidate = SparkFiles.get(name)
    except Exception:  # no SparkContext files on this worker
        candidate = None
    if candidate and os.path.exists(candidate):
        return candidate
    raise RuntimeError("%s: not on this worker; ship it with spark-submit --files" % given)


def _executable(path, workdir):
    if os.access(path, os.X_OK):
        return path
    copy = os.path.join(workdir, "relaylint-bin")
    shutil.copyfile(path, copy)
    os.chmod(copy, 0o755)
    return copy


def _stage_names(names, workdir):
    """A working directory for relaylint in which every relative name the user gave (`--config
    Examples/.relaylint.yml`) resolves, so the partial names each file as one run would."""
    depth = max([len(re.match(r"(\.\./)*", os.path.normpath(n) + "/").group(0)) // 3 for n in names] + [0])
    cwd = os.path.join(workdir, *(["up"] * depth)) if depth else workdir
    os.makedirs(cwd, exist_ok=True)
    return cwd


def write_partition(records, inputs, cwd):
    """Writes the partition's records back at their original lines and columns, one file per
    input; returns the relaylint arguments naming them."""
    arguments = []
    handles = []
    for index, (kind, given) in enumerate(inputs):
        relative = os.path.join("partition-input-%d" % (index + 1), os.path.basename(given) or "input")
        os.makedirs(os.path.join(cwd, os.path.dirname(relative)), exist_ok=True)
        handles.append(open(os.path.join(cwd, relative), "wb", buffering=1 << 20))
        arguments += ["--" + kind, relative]
    # Per input: [line, column] written so far (1-based line, 0-based column), and whether a user
    # was written (the comma before the next).
    place = [[1, 0] for _ in inputs]
    wrote_user = [False for _ in inputs]
    wrote_line = [False for _ in inputs]

    def move_to(index, line, column):
        out, at = handles[index], place[index]
        if line > at[0]:
            out.write(b"\n" * (line - at[0]))
            at[0], at[1] = line, 0
        if column < at[1]:
            raise RuntimeError("records overlap in %s at line %d" % (inputs[index][1], line))
        out.write(b" " * (column - at[1]))
        at[1] = column

    def put(index, data):
        handles[index].write(data)
        at = place[index]
        breaks = data.count(b"\n")
        if breaks:
            at[0] += breaks
            at[1] = len(data) - data.rindex(b"\n") - 1
        else:
            at[1] += len(data)

    try:
        for (_, index, _, role), (line, column, payload) in records:
            if inputs[index][0] == "events":
                if wrote_line[index]:
                    handles[index].write(b"\n" * (line - place[index][0]))
                else:
                    handles[index].write(b"\n" * (line - 1))
                handles[index].write(payload)
                place[index][0] = line
                wrote_line[index] = True
                continue
            if role == RECORD and wrote_user[index]:
                put(index, b",")
            if role == PREFIX:
                put(index, payload)
                continue
            move_to(index, line, column)
            put(index, payload)
            wrote_user[index] = wrote_user[index] or role == RECORD
        for index, (kind, _) in enumerate(inputs):
            if kind == "events" and wrote_line[index]:
                handles[index].write(b"\n")
    finally:
        for out in handles:
            out.close()
    return arguments


def check_partition(slot, records, plan):
    """mapPartitionsWithIndex: Spark partition `slot` is relaylint partition slot+1."""
    workdir = tempfile.mkdtemp(prefix="relaylint-partition-%d-" % (slot + 1))
    try:
        cwd = _stage_names([given for given, _ in plan["files"]], workdir)
        binary = _executable(_place_file(plan["relaylint"][0], plan["relaylint"][1], workdir), workdir)
        for given, driver_path in plan["files"]:
            if os.path.isabs(given):
                continue
            local = os.path.abspath(_place_file(given, driver_path, workdir))
            link = os.path.normpath(os.path.join(cwd, given))
            os.makedirs(os.path.dirname(link), exist_ok=True)
            if not os.path.lexists(link):
                os.symlink(local, link)
        data_arguments = write_partition(records, plan["inputs"], cwd)
        command = [binary, "check", "--quiet", "--partition", "%d/%d" % (slot + 1, plan["count"])]
        if plan["data_end"]:
            command += ["--data-end", plan["data_end"]]
        command += ["--format", "json", "--output", "partial.json"] + plan["shared"] + plan["check"] + data_arguments
        done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        partial = b""
        if os.path.exists(os.path.join(cwd, "partial.json")):
            with open(os.path.join(cwd, "partial.json"), "rb") as handle:
                partial = handle.read()
        yield slot + 1, done.returncode, partial, done.stderr.decode("utf-8", "replace")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The driver.


def _arguments(argv):
    parser = argparse.ArgumentParser(
        description="Check Firebase exports and relaylint logs on Spark: partition by subject, "
        "`relaylint check --partition` in the executors, `relaylint merge` on the driver.")
    parser.add_argument("--relaylint", required=True, help="the relaylint binary (a path, or the name shipped with --files)")
    parser.add_argument("--partitions", type=int, required=True, help="N, the number of partitions")
    parser.add_argument("--accounts", action="append", default=[], help="a Firebase JSON export; repeatable")
    parser.add_argument("--events", action="append", default=[], help="a relaylint log (JSON Lines); repeatable")
    parser.add_argument("--master", help="Spark master (default: local[2], or spark-submit's)")
    shared = parser.add_argument_group("given to every check and to the merge")
    shared.add_argument("--config")
    shared.add_argument("--manifest")
    shared.add_argument("--rules", action="append", default=[])
    shared.add_argument("--enable", action="append", default=[])
    shared.add_argument("--disable", action="append", default=[])
    shared.add_argument("--relay-domain", action="append", default=[])
    shared.add_argument("--no-suppressions", action="store_true")
    shared.add_argument("--baseline")
    parser.add_argument("--check-arg", action="append", default=[],
                        help="one more argument of every `check` only, e.g. --check-arg=--skip-invalid")
    merge = parser.add_argument_group("given to the merge")
    merge.add_argument("--format", default="json")
    merge.add_argument("--output")
    merge.add_argument("--report", action="append", default=[], help="FORMAT=FILE; repeatable")
    merge.add_argument("--title")
    merge.add_argument("--reviewer")
    merge.add_argument("--date")
    merge.add_argument("--fail-on")
    parser.add_argument("--keep", metavar="DIR", help="keep the partials and sources.json in DIR")
    parser.add_argument("--upload", metavar="URI",
                        help="copy the reports to this Hadoop folder (gs://…, hdfs://…) after the merge")
    options = parser.parse_args(argv)
    if options.partitions < 1:
        parser.error("--partitions must be 1 or more")
    if not options.accounts and not options.events:
        parser.error("nothing to check: give --accounts FILE and/or --events FILE")
    return options


def _shared_arguments(options):
    arguments = []
    for name in ("config", "manifest", "baseline"):
        if getattr(options, name):
            arguments += ["--" + name, getattr(options, name)]
    for name in ("rules", "enable", "disable", "relay_domain"):
        for value in getattr(options, name):
            arguments += ["--" + name.replace("_", "-"), value]
    if options.no_suppressions:
        arguments.append("--no-suppressions")
    return arguments


def _ship(context, path):
    """The driver's path of a file (for local mode), shipped to the executors when the cluster
    has no shared disk; None when the driver does not have it (then it came with --files)."""
    if not os.path.exists(path):
        return None
    absolute = os.path.abspath(path)
    if not context.master.startswith("local"):
        try:
            context.addFile(absolute, recursive=os.path.isdir(absolute))
        except Exception:  # already shipped under that name (spark-submit --files)
            pass
    return absolute


def main(argv=None):
    options = _arguments(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession, functions as F, types as T

    builder = (SparkSession.builder.appName("relaylint")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.execution.pythonUDF.arrow.enabled", "false"))
    if options.master:
        builder = builder.master(options.master)
    elif "PYSPARK_GATEWAY_PORT" not in os.environ:  # not under spark-submit
        builder = builder.master("local[2]")
    spark = builder.getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("WARN")
    count = options.partitions

    # One run without --config reads .relaylint.yml in its working directory, by its full path.
    if options.config is None and os.path.exists(".relaylint.yml"):
        options.config = os.path.join(os.getcwd(), ".relaylint.yml")
    shared = _shared_arguments(options)
    files = [name for name in [options.config, options.manifest, options.baseline] + options.rules
             if name and name != "builtin"]
    driver_binary = options.relaylint if os.path.exists(options.relaylint) else None
    if driver_binary is None:
        from pyspark import SparkFiles
        shipped = os.path.join(os.getcwd(), os.path.basename(options.relaylint))
        driver_binary = shipped if os.path.exists(shipped) else SparkFiles.get(os.path.basename(options.relaylint))

    # Inputs in the order `check` lists them: exports, then logs.
    inputs = [("accounts", path) for path in options.accounts] + [("events", path) for path in options.events]

    schema = T.StructType([
        T.StructField("input", T.IntegerType(), False),
        T.StructField("position", T.LongType(), False),
        T.StructField("role", T.IntegerType(), False),
        T.StructField("line", T.LongType(), False),
        T.StructField("column", T.LongType(), False),
        T.StructField("subject", T.StringType(), True),
        T.StructField("fixed", T.IntegerType(), True),
        T.StructField("payload", T.BinaryType(), False),
        T.StructField("seconds", T.LongType(), True),
        T.StructField("nanoseconds", T.IntegerType(), True),
    ])
    pieces = []
    hashes = []
    for index, (kind, path) in enumerate(inputs):
        whole = context.binaryFiles(path)
        hashes.append(whole.mapValues(lambda data: hashlib.sha256(data).hexdigest()))
        if kind == "accounts":
            rows = whole.flatMap(lambda item, index=index, path=path: export_rows(index, path, item[1], count))
        else:
            lines = context.newAPIHadoopFile(
                path, "org.apache.hadoop.mapreduce.lib.input.TextInputFormat", "org.apache.hadoop.io.LongWritable",
                "org.apache.hadoop.io.Text", conf={"textinputformat.record.delimiter": "\n"})
            rows = lines.values().zipWithIndex().mapPartitions(lambda part, index=index: event_rows(index, part))
        pieces.append(rows)
    records = spark.createDataFrame(context.union(pieces), schema)

    slot_of = F.udf(lambda subject: partition_slot(subject, count), T.IntegerType())
    records = records.withColumn("slot", F.coalesce(F.col("fixed"), slot_of(F.col("subject"))))
    records.persist()

    # The end of all the data: the latest event time (`relaylint split` writes it to data-end.txt).
    latest = records.where(F.col("seconds").isNotNull()).agg(F.max(F.struct("seconds", "nanoseconds")).alias("t")).first().t
    data_end = describe_time(latest.seconds, latest.nanoseconds) if latest is not None else None

    sources = {"partitions": count, "inputs": []}
    if data_end:
        sources["dataEnd"] = data_end
    for (kind, path), digests in zip(inputs, hashes):
        found = digests.collect()
        if len(found) != 1:
            raise SystemExit("relaylint-spark: %s: expected one file, found %d" % (path, len(found)))
        sources["inputs"].append({"kind": kind, "path": path, "sha256": found[0][1]})

    plan = {
        "count": count,
        "data_end": data_end,
        "inputs": inputs,
        "shared": shared,
        "check": options.check_arg + ["--jobs", context.getConf().get("spark.task.cpus", "1")],
        "relaylint": (options.relaylint, _ship(context, options.relaylint)),
        "files": [(name, _ship(context, name)) for name in files],
    }
    keyed = records.select("slot", "input", "position", "role", "line", "column", "payload").rdd.map(
        lambda row: ((row.slot, row.input, row.position, row.role), (row.line, row.column, bytes(row.payload))))
    ordered = keyed.repartitionAndSortWithinPartitions(numPartitions=count, partitionFunc=lambda key: key[0])
    results = ordered.mapPartitionsWithIndex(lambda slot, part: check_partition(slot, part, plan)).collect()
    records.unpersist()

    keep = options.keep or tempfile.mkdtemp(prefix="relaylint-spark-")
    os.makedirs(keep, exist_ok=True)
    failed = False
    partials = []
    for number, status, partial, errors in sorted(results):
        if errors.strip():
            sys.stderr.write("".join("partition %d/%d: %s\n" % (number, count, line) for line in errors.splitlines()))
        if status not in (0, 1) or not partial:
            failed = True
            continue
        path = os.path.join(keep, "partial-%d.json" % number)
        with open(path, "wb") as handle:
            handle.write(partial)
        partials.append(path)
    sources_path = os.path.join(keep, "sources.json")
    with open(sources_path, "w", encoding="utf-8") as handle:
        json.dump(sources, handle, indent=2, sort_keys=True)
        handle.write("\n")
    if failed:
        sys.stderr.write("relaylint-spark: a partition's check failed (exit 2); nothing merged\n")
        spark.stop()
        return 2

    command = [_executable(driver_binary, keep), "merge", "--sources", sources_path, "--format", options.format] + shared
    for name in ("output", "title", "reviewer", "date", "fail_on"):
        if getattr(options, name):
            command += ["--" + name.replace("_", "-"), getattr(options, name)]
    for report in options.report:
        command += ["--report", report]
    status = subprocess.run(command + partials).returncode
    if options.upload and status in (0, 1):
        hadoop = context._jvm.org.apache.hadoop.fs
        target = hadoop.Path(options.upload)
        filesystem = target.getFileSystem(context._jsc.hadoopConfiguration())
        for local in [options.output] + [report.split("=", 1)[1] for report in options.report]:
            if local:
                filesystem.copyFromLocalFile(hadoop.Path(os.path.abspath(local)), hadoop.Path(target, os.path.basename(local)))
    if not options.keep:
        shutil.rmtree(keep, ignore_errors=True)
    spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
