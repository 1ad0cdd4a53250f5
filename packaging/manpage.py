#!/usr/bin/env python3
"""Writes a man page (roff) from a program's --help text, so the options are written once.

    packaging/manpage.py PROGRAM SUMMARY > PROGRAM.1

PROGRAM is run with --help (and --version); for `imagestage` each command listed under
"Commands:" is run with --help too and gets its own subsection. The help text's shape is
what every --help here prints: "usage: …", paragraphs, "Heading:" lines, and definition
lines ("  --option VALUE    what it does", two or more spaces between).
"""

import os
import re
import subprocess
import sys
import time


def run(program, *args):
    return subprocess.run([program, *args], check=True, capture_output=True, text=True).stdout


# Characters the help text uses, spelled so that every man device has them (an ASCII
# terminal has no U+2026: groff warned and dropped it).
SPECIAL = {"\u2026": "...", "\u00d7": "\\(mu", "\u00b0": "\\(de", "\u2014": "\\(em", "\u2013": "\\(en",
           "\u2019": "'", "\u2018": "`", "\u201c": "\\(lq", "\u201d": "\\(rq", "\u2192": "\\(->", "\u2264": "\\(<=",
           "\u2265": "\\(>=", "\u00b1": "\\(+-"}


def escape(text):
    """roff-safe text: backslashes, hyphens as minus signs (options), no leading dot, and
    characters outside ASCII by their roff names."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(SPECIAL.get(c, c if ord(c) < 128 else f"\\[u{ord(c):04X}]") for c in text)
    return ("\\&" + text) if text[:1] in (".", "'") else text


def term(left):
    """An option's left column, bold names and italic values: --size WxH, -o, --output OUT."""
    parts = []
    for word in left.split(" "):
        if word.startswith("-"):
            parts.append("\\fB" + escape(word) + "\\fR")
        else:
            parts.append("\\fI" + escape(word) + "\\fR")
    return " ".join(parts)


def convert(text, heading_macro):
    """The body of one help text (after its usage line) as roff."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            out.append(".PP")
            continue
        stripped = line.strip()
        indent = len(line) - len(stripped)
        m = re.match(r"^(\S.*?)\s{2,}(\S.*)$", stripped)
        if stripped.endswith(":") and not m:
            macro = heading_macro if indent == 0 else ".SS"
            out.append(f'{macro} "{escape(stripped[:-1])}"')
        elif m and indent > 0:
            out += [".TP", term(m.group(1)) if m.group(1).startswith("-") else "\\fB" + escape(m.group(1)) + "\\fR",
                    escape(m.group(2))]
        elif indent > 0:
            out += [".br", escape(stripped)]
        else:
            out.append(escape(stripped))
    # No empty paragraphs: a .PP right before a heading or at the end says nothing.
    cleaned = []
    for line in out:
        if line == ".PP" and (not cleaned or cleaned[-1] == ".PP" or cleaned[-1].startswith((".SH", ".SS"))):
            continue
        if line.startswith((".SH", ".SS", ".TP")) and cleaned and cleaned[-1] == ".PP":
            cleaned.pop()
        cleaned.append(line)
    while cleaned and cleaned[-1] == ".PP":
        cleaned.pop()
    return cleaned


def split_usage(text):
    lines = text.strip("\n").splitlines()
    assert lines[0].startswith("usage: "), f"help text does not start with usage: {lines[0]!r}"
    return lines[0][len("usage: "):], "\n".join(lines[1:]).strip("\n")


def main():
    program, summary = sys.argv[1], sys.argv[2]
    name = os.path.basename(program)
    version = run(program, "--version").split()[-1]
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))
    date = time.strftime("%Y-%m-%d", time.gmtime(epoch))
    help_text = run(program, "--help")
    synopsis, body = split_usage(help_text)
    page = [f'.TH {name.upper()} 1 "{date}" "{name} {version}" "User Commands"',
            ".SH NAME", f"{escape(name)} \\- {escape(summary)}",
            ".SH SYNOPSIS", escape(synopsis), ".SH DESCRIPTION"]
    page += convert(body, ".SS")
    commands = []
    for line in help_text.splitlines():
        words = line.split()
        if line.startswith("  ") and words and words[0] == name:
            command = []
            for w in words[1:]:
                if not re.fullmatch(r"[a-z]+", w):
                    break
                command.append(w)
            # A command with other forms (pano render --config …) is listed once per form
            # in the overview; its subsection is written once.
            if command and command not in commands:
                commands.append(command)
    if commands:
        page.append(".SH COMMANDS")
        for command in commands:
            usage, text = split_usage(run(program, *command, "--help"))
            page += [f'.SS "{escape(" ".join([name] + command))}"', escape(usage), ".PP"]
            # A command's own headings ("Options:") are bold lines within its subsection.
            page += [line.replace(".SS", ".B", 1) if line.startswith(".SS") else line for line in convert(text, ".B")]
    # The docs the package ships (packaging/deb/build.sh): the file formats are there.
    page += [".SH FILES", ".TP", "\\fI/usr/share/doc/imagestage/\\fR",
             "The guides, with the file formats: \\fBcli.md\\fR (every command), \\fBvideo.md\\fR (reframing, "
             "the \\fB\\-\\-keys\\fR keyframe format), \\fBmotion.md\\fR (motion logs), \\fBviewer.md\\fR "
             "(viewer configs and tours), \\fBscenario.md\\fR (board scenarios), and \\fBexamples/\\fR. "
             "Files over 4 KB are compressed (read them with \\fBzless\\fR).",
             ".SH SEE ALSO", "\\fB" + ("imagestage\\-app" if name == "imagestage" else "imagestage") + "\\fR(1)."]
    print("\n".join(page))


if __name__ == "__main__":
    main()
