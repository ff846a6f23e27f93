"""The `outline-splitter` command line (also `python -m outline_splitter`).

    outline-splitter split docs/ README.md --chunk-size 256 -o chunks.jsonl
    outline-splitter outline README.md
    outline-splitter bench

Exit codes: 0 success; 1 an unexpected failure; 2 a usage error or at least one input
that could not be split (missing, unreadable, undecodable, unknown type), each reported
on one line of stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any

from outline_splitter import __version__
from outline_splitter.models import OutlineNode, TextChunk
from outline_splitter.registry import FORMATS, doc_type_for_path, doc_types, load_hooks, resolve_doc_type
from outline_splitter.splitter import OutlineTextSplitter

PROG = "outline-splitter"
# A single file at least this large gets a progress bar too (splitting it takes a while).
LARGE_INPUT_BYTES = 1_000_000
SOURCE_ROOT = Path(__file__).resolve().parents[1]


class InputError(Exception):
    """An input that cannot be split; its message is the one line shown to the user."""


# -- split ----------------------------------------------------------------------------


def _extensions(doc_type: str) -> tuple[str, ...]:
    if doc_type == "auto":
        return tuple(ext for fmt in FORMATS for ext in fmt.extensions)
    return resolve_doc_type(doc_type).extensions


def expand_inputs(paths: Sequence[Path], doc_type: str) -> Iterator[Path | InputError]:
    """Each file to split, in order: files as given, folders walked recursively (sorted)
    keeping the files whose extension belongs to `doc_type` (any known one for `auto`).
    A path that does not exist yields an `InputError` in its place."""
    extensions = _extensions(doc_type)
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in extensions)
        elif path.exists():
            yield path
        else:
            yield InputError(f"{path}: no such file or directory")


def read_input(path: Path, encoding: str) -> str:
    """The file's text; `InputError` naming the file when it cannot be read or decoded."""
    try:
        return path.read_text(encoding=encoding)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: cannot decode as {encoding} (byte {exc.start}: {exc.reason})") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def splitter_options(args: argparse.Namespace) -> dict[str, Any]:
    """`OutlineTextSplitter` keyword arguments from the options (doc type and output
    aside); `ValueError` with the reason when they do not fit together."""
    options: dict[str, Any] = {
        "chunk_size": args.chunk_size,
        "chunk_overlap": args.overlap,
        "tokenizer": args.tokenizer,
    }
    if args.content != "all":
        options["content"] = args.content
    if args.doc_type != "auto":  # validates every option once, up front
        OutlineTextSplitter(doc_type=args.doc_type, output=_output_for(args.doc_type, args.output), **options)
    else:
        OutlineTextSplitter(doc_type="html", **options)
    return options


def _output_for(doc_type: str, output: str) -> str | None:
    """`--output text` applies to formats that have a text mode (HTML); the others are
    split as source whatever it says, so one folder can hold both."""
    return output if output in resolve_doc_type(doc_type).outputs else None


def split_path(
    path: Path,
    doc_type: str,
    options: dict[str, Any],
    output: str,
    encoding: str,
    splitters: dict[str, OutlineTextSplitter],
) -> list[TextChunk]:
    """The chunks of one file, each with its `source` in the metadata; `InputError` or
    `ValueError` when the file cannot be read, decoded or typed."""
    resolved = doc_type_for_path(path) if doc_type == "auto" else doc_type
    text = read_input(path, encoding)
    if doc_type == "auto" and load_hooks(resolve_doc_type(resolved)).select is None:
        options = {name: value for name, value in options.items() if name != "content"}  # HTML's option
    if resolved not in splitters:
        splitters[resolved] = OutlineTextSplitter(doc_type=resolved, output=_output_for(resolved, output), **options)
    return [
        chunk.model_copy(update={"metadata": {**chunk.metadata, "source": str(path)}})
        for chunk in splitters[resolved].split(text)
    ]


def chunk_record(path: Path, chunk: TextChunk) -> dict[str, Any]:
    """One output object: the source path, then the chunk's fields and metadata."""
    return {"source": str(path), **chunk.model_dump()}


def _write_text(out: IO[str], path: Path, chunk: TextChunk) -> None:
    headings = " > ".join(chunk.metadata.get("heading_path", [])) or "(no heading)"
    out.write(
        f"--- {path} chunk {chunk.metadata.get('index')} [{chunk.start_pos}, {chunk.end_pos}) "
        f"{chunk.token_count} tokens  {headings}\n{chunk.text}\n\n"
    )


def _progress(enabled: bool, total: int) -> Any:
    """A rich progress bar on stderr (a no-op context when disabled)."""
    if not enabled:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    progress.add_task("splitting", total=total)
    return progress


def command_split(args: argparse.Namespace) -> int:
    try:
        options = splitter_options(args)
    except ValueError as exc:
        return _error(str(exc))
    splitters: dict[str, OutlineTextSplitter] = {}
    inputs = list(expand_inputs(args.paths, args.doc_type))
    files = [item for item in inputs if isinstance(item, Path)]
    large = any(p.stat().st_size >= LARGE_INPUT_BYTES for p in files)
    show_progress = not args.no_progress and sys.stderr.isatty() and (any(p.is_dir() for p in args.paths) or large)
    failures = 0
    records: list[dict[str, Any]] = []
    out: IO[str] = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout  # noqa: SIM115
    try:
        with _progress(show_progress, len(inputs)) as progress:
            for item in inputs:
                try:
                    if isinstance(item, InputError):
                        raise item
                    chunks = split_path(item, args.doc_type, options, args.output, args.encoding, splitters)
                except (InputError, ValueError) as exc:
                    failures += 1
                    _error(str(exc) if isinstance(exc, InputError) else f"{item}: {exc}")
                    if args.strict:
                        return 2
                    continue
                finally:
                    if progress is not None:
                        progress.advance(progress.task_ids[0])
                for chunk in chunks:
                    if args.format == "jsonl":
                        out.write(json.dumps(chunk_record(item, chunk), ensure_ascii=False, default=str) + "\n")
                    elif args.format == "json":
                        records.append(chunk_record(item, chunk))
                    else:
                        _write_text(out, item, chunk)
        if args.format == "json":
            json.dump(records, out, ensure_ascii=False, indent=1, default=str)
            out.write("\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 2 if failures else 0


# -- outline --------------------------------------------------------------------------


def outline_tree(outline: OutlineNode, text: str, width: int) -> Any:
    """The outline as a rich `Tree`: kind, offsets and title of every node, and the
    start of the text of each leaf."""
    from rich.markup import escape
    from rich.tree import Tree

    def label(node: OutlineNode) -> str:
        title = node.meta.get("title") or node.meta.get("symbol") or node.meta.get("language") or ""
        parts = [f"[bold]{escape(node.kind)}[/bold]", f"[dim][{node.start}, {node.end})[/dim]"]
        if title:
            parts.append(f"[cyan]{escape(str(title))}[/cyan]")
        if not node.children:
            snippet = " ".join(text[node.start : node.end].split())
            parts.append(f"[dim]{escape(repr(snippet[:width]) + ('...' if len(snippet) > width else ''))}[/dim]")
        return " ".join(parts)

    def add(branch: Tree, node: OutlineNode) -> None:
        for child in node.children:
            add(branch.add(label(child)), child)

    tree = Tree(label(outline))
    add(tree, outline)
    return tree


def command_outline(args: argparse.Namespace) -> int:
    from rich.console import Console

    try:
        doc_type = doc_type_for_path(args.file) if args.doc_type == "auto" else args.doc_type
        text = read_input(args.file, args.encoding) if args.file.exists() else None
        if text is None:
            raise InputError(f"{args.file}: no such file or directory")
        outline = OutlineTextSplitter(doc_type=doc_type).outline(text)
    except (InputError, ValueError) as exc:
        return _error(str(exc))
    # On a terminal rich fits the tree to its width; into a pipe or file nothing is cropped.
    console = Console() if sys.stdout.isatty() else Console(width=100_000, no_color=True)
    console.print(outline_tree(outline, text, args.width))
    return 0


# -- bench ----------------------------------------------------------------------------


def _harness() -> Any:
    """`benchmarks.harness` from the source checkout this package runs from, or None
    (an installed wheel has no benchmarks: they need the checkout and its corpora)."""
    if not (SOURCE_ROOT / "benchmarks" / "harness.py").is_file():
        return None
    if str(SOURCE_ROOT) not in sys.path:
        sys.path.insert(0, str(SOURCE_ROOT))
    import benchmarks.harness

    return benchmarks.harness


def command_bench(args: argparse.Namespace) -> int:
    harness = _harness()
    if harness is None:
        return _error("bench needs a source checkout of outline-splitter (its benchmarks/ folder is not here)")
    code: int = harness.run(args)
    return code


# -- parser ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: `split`, `outline` and `bench`, every option documented."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Split documents into token-budgeted chunks along their structure, with exact offsets.",
        epilog="Exit codes: 0 ok, 2 usage error or an input that could not be split, 1 anything else.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    known = ", ".join(t for t in doc_types())

    split = commands.add_parser(
        "split",
        help="split files or folders into chunks (JSON Lines on stdout)",
        description="Split files, or every file of known extension under folders (recursively), into chunks. "
        "Writes one JSON object per chunk: source path, text, start_pos, end_pos, token_count, overlaps, metadata. "
        "An input that cannot be split is reported on one stderr line and skipped (exit code 2 at the end).",
    )
    split.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or folders to split")
    split.add_argument(
        "--doc-type",
        default="auto",
        metavar="TYPE",
        help=f"the format of the inputs; 'auto' picks it from each file's extension (one of: {known})",
    )
    split.add_argument("--chunk-size", type=int, default=512, metavar="N", help="most tokens per chunk (default 512)")
    split.add_argument(
        "--overlap",
        type=int,
        default=0,
        metavar="N",
        help="tokens of each neighbour recorded as start_overlap/end_overlap (default 0)",
    )
    split.add_argument(
        "--tokenizer",
        default="cl100k_base",
        metavar="NAME",
        help="tiktoken encoding that counts tokens (default cl100k_base, available offline)",
    )
    split.add_argument(
        "--output",
        choices=("html", "text"),
        default="html",
        help="for HTML: chunks as HTML source (default) or as readable text",
    )
    split.add_argument(
        "--content",
        choices=("all", "main"),
        default="all",
        help="for HTML: every part of the page (default) or its main content only, without navigation, "
        "sidebars, footers and widgets (with --doc-type auto, other formats are split whole)",
    )
    split.add_argument(
        "--format",
        choices=("jsonl", "json", "text"),
        default="jsonl",
        help="jsonl: one object a line (default); json: one array; text: readable blocks",
    )
    split.add_argument("-o", "--output-file", type=Path, metavar="FILE", help="write to FILE instead of stdout")
    split.add_argument("--encoding", default="utf-8", help="the inputs' text encoding (default utf-8)")
    split.add_argument("--strict", action="store_true", help="stop at the first input that cannot be split")
    split.add_argument(
        "--no-progress",
        action="store_true",
        help="never show the progress bar (shown on a terminal for folders and large files)",
    )
    split.set_defaults(handler=command_split)

    outline = commands.add_parser(
        "outline",
        help="print a file's outline tree",
        description="Print the outline the splitter builds for a file: each node's kind, [start, end) character "
        "offsets and title, and the start of each leaf's text, so you can see why a chunk was cut where it was.",
    )
    outline.add_argument("file", type=Path, metavar="FILE", help="the file to outline")
    outline.add_argument(
        "--doc-type",
        default="auto",
        metavar="TYPE",
        help=f"the file's format (default: from its extension; one of: {known})",
    )
    outline.add_argument("--encoding", default="utf-8", help="the file's text encoding (default utf-8)")
    outline.add_argument(
        "--width", type=int, default=60, metavar="N", help="characters of leaf text shown (default 60)"
    )
    outline.set_defaults(handler=command_outline)

    bench = commands.add_parser(
        "bench",
        help="run the benchmark harness (needs a source checkout)",
        description="Run outline-splitter and other splitters on the same corpora, print one table per corpus and "
        "write benchmarks/results/latest.{json,md,png} and docs/benchmarks.md (as `make bench` does).",
    )
    harness = _harness()
    if harness is not None:
        harness.add_arguments(bench)
    bench.set_defaults(handler=command_bench)
    return parser


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `outline-splitter split ... | head`
        sys.stderr.close()
        return 0
    return code
