#!/usr/bin/env python3
"""Serves this folder on http://127.0.0.1:8000/ as `python3 -m http.server` does, but answers
Range requests (206 Partial Content), which a browser needs to seek in a video: the standard
library's server sends the whole file instead, and the viewer's video then cannot seek.

    python3 serve.py [PORT] [--bind ADDRESS]

Python 3.7 or later, standard library only. For a site, any real web server (nginx, caddy,
Apache) or `npx http-server` answers ranges already.
"""

import argparse
import http.server
import os
import re


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript"}

    def send_head(self):
        # One range, "bytes=START-[END]" or "bytes=-SUFFIX"; anything else gets the whole file.
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "").strip())
        path = self.translate_path(self.path)
        self.range_left = None
        if not match or match.group(1) == match.group(2) == "" or not os.path.isfile(path):
            return super().send_head()
        try:
            f = open(path, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        size = os.fstat(f.fileno()).st_size
        if match.group(1):
            start = int(match.group(1))
            end = min(int(match.group(2)), size - 1) if match.group(2) else size - 1
        else:
            start, end = max(0, size - int(match.group(2))), size - 1
        if start >= size or end < start:
            f.close()
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.range_left = end - start + 1
        return f

    def end_headers(self):
        # Whole files too say that ranges are welcome.
        if self.range_left is None:
            self.send_header("Accept-Ranges", "bytes")
        super().end_headers()

    def copyfile(self, source, outputfile):
        left = self.range_left
        if left is None:
            return super().copyfile(source, outputfile)
        while left > 0:
            chunk = source.read(min(1 << 16, left))
            if not chunk:
                break
            outputfile.write(chunk)
            left -= len(chunk)


def main():
    parser = argparse.ArgumentParser(description="Serve this folder, with byte ranges (videos can seek).")
    parser.add_argument("port", nargs="?", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    args = parser.parse_args()
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    server = http.server.ThreadingHTTPServer((args.bind, args.port), RangeHandler)
    print(f"Serving {os.getcwd()} on http://{args.bind}:{args.port}/viewer.html (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
