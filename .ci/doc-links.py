#!/usr/bin/env python3
"""Dead links in rendered docs: every relative href/src in the crates' HTML
under DOC (target/doc) must name a file that exists there (a fragment or a
query is not checked). External links (http:, https:, mailto:, data:,
javascript:) are left alone. Prints each dead link and exits 1 if any."""
import html.parser
import os
import sys
import urllib.parse

# Links that are not ours to mend: tracing's `WithSubscriber` docs, shown
# in the blanket impls of every type here (tracing comes in through tokio),
# link relative to tracing's own pages.
IGNORED = {"dispatcher#setting-the-default-subscriber"}

doc = sys.argv[1] if len(sys.argv) > 1 else "target/doc"
crates = sys.argv[2:] or ["kuuid"]


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.found.append(value)


dead = []
pages = 0
for crate in crates:
    for root, _, files in os.walk(os.path.join(doc, crate)):
        for f in files:
            if not f.endswith(".html"):
                continue
            page = os.path.join(root, f)
            pages += 1
            parser = Links()
            with open(page, encoding="utf-8") as fh:
                parser.feed(fh.read())
            for link in parser.found:
                parts = urllib.parse.urlsplit(link)
                # docs.rs has no page of this repository's crates before
                # their first release (issue 63: five links there were
                # dead); link the item (intra-doc) or a relative page.
                if parts.netloc == "docs.rs" and parts.path.split("/")[1:2] in (
                    ["kuuid"], ["kuuid-sequence"], ["kuuid_sequence"], ["kuuid-cli"]
                ):
                    dead.append(f"{os.path.relpath(page, doc)}: {link} (docs.rs, before the first release)")
                    continue
                if parts.scheme or link.startswith(("#", "//")) or link in IGNORED:
                    continue
                path = urllib.parse.unquote(link.split("#", 1)[0].split("?", 1)[0])
                if not path:
                    continue
                target = os.path.normpath(os.path.join(root, path))
                if not os.path.exists(target):
                    dead.append(f"{os.path.relpath(page, doc)}: {link}")
for d in dead:
    print(f"dead link: {d}")
print(f"{len(dead)} dead links in {pages} pages")
sys.exit(1 if dead else 0)
