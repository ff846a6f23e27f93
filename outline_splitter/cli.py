"""The `outline-splitter` command line (also `python -m outline_splitter`).

    outline-splitter split docs/ README.md --chunk-size 256 -o chunks.jsonl
    outline-splitter outline README.md
    outline-splitter view README.md -o README.view.html
    outline-splitter bench

Exit codes: 0 success; 1 an unexpected failure; 2 a usage error, at least one input
that could not be split (missing, unreadable, undecodable, unknown type), each reported
on one line of stderr, or nothing to split (folders with no file of a known type).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, get_args, get_origin

from outline_splitter import __version__
from outline_splitter.bad_input import DANGLING, UNKNOWN_EXTENSION
from outline_splitter.batch import split_many
from outline_splitter.models import OutlineNode, TextChunk
from outline_splitter.options import AUTO, DECODE_ERRORS, OPTION_NAMES, SplitterOptions
from outline_splitter.reading import check_encoding, read_input
from outline_splitter.registry import FORMATS, doc_types, resolve_doc_type
from outline_splitter.splitter import OutlineTextSplitter

PROG = "outline-splitter"
# A single file at least this large gets a progress bar too (splitting it takes a while).
LARGE_INPUT_BYTES = 1_000_000


# -- split ----------------------------------------------------------------------------


@dataclass
class Inputs:
    """What a `split` command line names: the files to split, in order, and the files
    under its folders that are skipped, each with the reason."""

    files: list[Path] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)

    def skipped_summary(self) -> str:
        """`"3 skipped: 2 unknown extension (.bin, .png), 1 dangling link"`, or `""`."""
        if not self.skipped:
            return ""
        unknown = sorted({path.suffix or "no extension" for path, why in self.skipped if why == UNKNOWN_EXTENSION})
        parts = []
        for reason, count in Counter(reason for _, reason in self.skipped).most_common():
            if reason == UNKNOWN_EXTENSION:  # which extensions, so a missing format is easy to spot
                reason += f" ({', '.join(unknown[:5])}{', ...' if len(unknown) > 5 else ''})"
            parts.append(f"{count} {reason}")
        return f"{len(self.skipped)} skipped: {', '.join(parts)}"


def expand_inputs(paths: Sequence[Path], doc_type: str) -> Inputs:
    """Files as given (a missing one too: splitting reports it); folders walked
    recursively (sorted), keeping the files whose extension belongs to `doc_type` (any
    known one for `auto`) and recording why each other file is skipped."""
    known = tuple(ext for fmt in FORMATS for ext in fmt.extensions)
    wanted = known if doc_type == "auto" else resolve_doc_type(doc_type).extensions
    inputs = Inputs()
    for path in paths:
        if not path.is_dir():
            inputs.files.append(path)
            continue
        for entry in sorted(path.rglob("*")):
            suffix = entry.suffix.lower()
            if entry.is_symlink() and not entry.exists():
                inputs.skipped.append((entry, DANGLING))
            elif entry.is_dir():
                continue
            elif not entry.is_file():
                inputs.skipped.append((entry, "not a regular file"))
            elif suffix in wanted:
                inputs.files.append(entry)
            else:
                inputs.skipped.append((entry, UNKNOWN_EXTENSION if suffix not in known else f"not {doc_type}"))
    return inputs


def splitter_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (the others keep the model's defaults).
    Under `--doc-type auto`, `--html-output text` and the content options apply to the
    formats that have them (HTML) and the others are split as source, as in the Python
    API (`SplitterOptions.for_format`); a format named outright that lacks them is an error."""
    return {name: getattr(args, name) for name in OPTION_NAMES if hasattr(args, name)}


def chunk_record(path: Path, chunk: TextChunk) -> dict[str, Any]:
    """One output object: the source path, then the chunk's fields and metadata."""
    return {"source": str(path), **chunk.model_dump()}


def _write_chunks(
    out: IO[str], path: Path, chunks: list[TextChunk], output_format: str, records: list[dict[str, Any]]
) -> None:
    """A file's chunks in `output_format`: JSON lines written now, JSON records kept in
    `records` for the one array written at the end, or text blocks."""
    for chunk in chunks:
        if output_format == "jsonl":
            out.write(json.dumps(chunk_record(path, chunk), ensure_ascii=False, default=str) + "\n")
        elif output_format == "json":
            records.append(chunk_record(path, chunk))
        else:
            _write_text(out, path, chunk)


def _write_text(out: IO[str], path: Path, chunk: TextChunk) -> None:
    headings = " > ".join(chunk.metadata.get("heading_path", [])) or "(no heading)"
    out.write(
        f"--- {path} chunk {chunk.metadata.get('index')} [{chunk.start_pos}, {chunk.end_pos}) "
        f"{chunk.token_count} tokens  {headings}\n{chunk.text}\n\n"
    )


def _shows_progress(args: argparse.Namespace, sizes: list[int]) -> bool:
    """Whether `split` shows a progress bar: on a terminal, for folders and large files,
    unless `--no-progress`."""
    large = any(size >= LARGE_INPUT_BYTES for size in sizes)
    return not args.no_progress and sys.stderr.isatty() and (any(p.is_dir() for p in args.paths) or large)


def _progress(enabled: bool, total_bytes: int, files: int) -> Any:
    """A rich progress bar on stderr over the inputs' bytes: files done, MB, rate and
    time left (a no-op context when disabled)."""
    if not enabled:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    progress.add_task(f"0/{files} files", total=total_bytes)
    return progress


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # missing or unreadable: splitting reports it
        return 0


@dataclass
class Tally:
    """What a `split` run did, for its summary line."""

    files: int = 0
    failed: int = 0
    chunks: int = 0
    tokens: int = 0
    bytes: int = 0
    started: float = field(default_factory=time.perf_counter)

    def add(self, chunks: list[TextChunk], size: int) -> None:
        """Count a file of `size` bytes split into `chunks`."""
        self.files += 1
        self.bytes += size
        self.chunks += len(chunks)
        self.tokens += sum(chunk.token_count for chunk in chunks)

    def summary(self, inputs: Inputs) -> str:
        seconds = time.perf_counter() - self.started
        megabytes = self.bytes / 1e6
        parts = [
            f"{self.files} files, {self.chunks} chunks, {self.tokens} tokens, {megabytes:.2f} MB in {seconds:.1f} s "
            f"({megabytes / max(seconds, 1e-9):.2f} MB/s)"
        ]
        if self.failed:
            parts.append(f"{self.failed} failed")
        if inputs.skipped:
            parts.append(inputs.skipped_summary())
        return "; ".join(parts)


def command_split(args: argparse.Namespace) -> int:
    try:
        inputs = expand_inputs(args.paths, args.doc_type)
        files = inputs.files
        sizes = [_size(path) for path in files]
        # no more workers than files: one file is split in this process, with no pool to start;
        # by default (None) split_many starts helpers only once the work pays for them
        workers = min(args.workers, max(1, len(files))) if args.workers else None if len(files) > 1 else 1
        results = split_many(files, workers=workers, encoding=args.encoding, **splitter_options(args))
    except ValueError as exc:
        return _error(str(exc))
    show_progress = _shows_progress(args, sizes)
    tally = Tally()
    records: list[dict[str, Any]] = []
    out: IO[str] = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout  # noqa: SIM115
    try:
        with closing(results), _progress(show_progress, sum(sizes), len(files)) as progress:
            for result in results:
                path = files[result.index]
                if progress is not None:
                    done = f"{result.index + 1}/{len(files)} files"
                    progress.update(progress.task_ids[0], advance=sizes[result.index], description=done)
                if not result.ok:
                    tally.failed += 1
                    _error(f"{path}: {result.error}")
                    if args.strict:
                        return 2
                    continue
                tally.add(result.chunks, sizes[result.index])
                _write_chunks(out, path, result.chunks, args.format, records)
        if args.format == "json":
            json.dump(records, out, ensure_ascii=False, indent=1, default=str)
            out.write("\n")
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"{PROG}: {tally.summary(inputs)}", file=sys.stderr)
    if not tally.files and not tally.failed:
        return _error("nothing was split: no file under the folders given has a known extension")
    return 2 if tally.failed else 0


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

    tree = Tree(label(outline))
    stack = [(tree, outline)]
    while stack:
        branch, node = stack.pop()
        stack.extend((branch.add(label(child)), child) for child in node.children)
    return tree


def command_outline(args: argparse.Namespace) -> int:
    from rich.console import Console

    try:
        named = None if args.doc_type == AUTO else args.doc_type
        doc_type, text = read_input(args.file, named, check_encoding(args.encoding), args.decode_errors)
        outline = OutlineTextSplitter(doc_type=doc_type).outline(text)
    except ValueError as exc:
        return _error(str(exc))
    # On a terminal rich fits the tree to its width; into a pipe or file nothing is cropped.
    console = Console() if sys.stdout.isatty() else Console(width=100_000, no_color=True)
    console.print(outline_tree(outline, text, args.width))
    return 0


# -- view -----------------------------------------------------------------------------


def command_view(args: argparse.Namespace) -> int:
    """Write the page of `outline_splitter.view` for one file."""
    try:
        splitter = OutlineTextSplitter(**splitter_options(args))
        named = None if args.doc_type == AUTO else args.doc_type
        doc_type, text = read_input(args.file, named, check_encoding(args.encoding), splitter.options.decode_errors)
        page = splitter.splitter_for(doc_type).view(text, title=args.file.name, document_id=str(args.file))
        target = page.save(args.output_file or Path(args.file.name + ".html"))
    except (ValueError, OSError) as exc:
        return _error(str(exc))
    print(f"{PROG}: wrote {target} ({page.summary()}, {len(page.html) / 1e6:.1f} MB)", file=sys.stderr)
    return 0


# -- bench ----------------------------------------------------------------------------


def command_bench(args: argparse.Namespace) -> int:
    from outline_splitter.bench import harness

    return harness.run(args)


# -- parser ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: `split`, `outline`, `view` and `bench`, every option documented.
    Each command is declared by a function that adds its arguments, whose docstring is the
    command's help (its first line) and description (the rest)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Split documents into token-budgeted chunks along their structure, with exact offsets.",
        epilog="Exit codes: 0 ok, 2 usage error, an input that could not be split or nothing split, 1 anything else.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for handler, declare in COMMANDS:
        summary, _, description = inspect.cleandoc(declare.__doc__ or "").partition("\n\n")
        command = commands.add_parser(handler.__name__.removeprefix("command_"), help=summary, description=description)
        declare(command)
        command.set_defaults(handler=handler)
    return parser


def _split_command(split: argparse.ArgumentParser) -> None:
    """split files or folders into chunks (JSON Lines on stdout)

    Split files, or every file of known extension under folders (recursively), into chunks.
    Writes one JSON object per chunk: source path, text, start_pos, end_pos, token_count,
    overlaps, metadata. An input that cannot be split is reported on one stderr line and
    skipped (exit code 2 at the end); a run that splits no file at all (folders with no file
    of a known type) exits with 2 too.
    """
    split.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or folders to split")
    add_option_flags(split)
    _add_output_flags(split)
    split.add_argument("--encoding", default="utf-8", help="the inputs' text encoding (default utf-8)")
    split.add_argument("--strict", action="store_true", help="stop at the first input that cannot be split")
    split.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="processes that split files in parallel (default: this one, joined by helpers on the other cores "
        "once the folder is long enough to pay for them; 1 splits in this process)",
    )
    split.add_argument(
        "--no-progress",
        action="store_true",
        help="never show the progress bar (shown on a terminal for folders and large files)",
    )


def _add_output_flags(split: argparse.ArgumentParser) -> None:
    """`split`'s flags of where and how the chunks are written."""
    split.add_argument(
        "--format",
        choices=("jsonl", "json", "text"),
        default="jsonl",
        help="jsonl: one object a line (default); json: one array; text: readable blocks",
    )
    split.add_argument("-o", "--output-file", type=Path, metavar="FILE", help="write to FILE instead of stdout")
    split.add_argument(
        "--output",
        dest="output",
        type=_deprecated_output,
        default=argparse.SUPPRESS,
        help="deprecated: use --html-output (for the output file, -o/--output-file)",
    )


def _outline_command(outline: argparse.ArgumentParser) -> None:
    """print a file's outline tree

    Print the outline the splitter builds for a file: each node's kind, [start, end)
    character offsets and title, and the start of each leaf's text, so you can see why a
    chunk was cut where it was.
    """
    known = ", ".join(t for t in doc_types())
    outline.add_argument("file", type=Path, metavar="FILE", help="the file to outline")
    outline.add_argument(
        "--doc-type",
        default="auto",
        metavar="TYPE",
        help=f"the file's format (default: from its extension; one of: {known})",
    )
    outline.add_argument("--encoding", default="utf-8", help="the file's text encoding (default utf-8)")
    decode_errors = SplitterOptions.model_fields["decode_errors"]
    outline.add_argument(
        "--decode-errors", choices=DECODE_ERRORS, default=decode_errors.default, help=decode_errors.description
    )
    outline.add_argument(
        "--width", type=int, default=60, metavar="N", help="characters of leaf text shown (default 60)"
    )


def _view_command(view: argparse.ArgumentParser) -> None:
    """write an HTML page that shows a file's chunks over its source

    Split a file and write one self-contained HTML page (no network needed) that shows the
    source with every chunk's span marked, its tokens against the budget, heading path or
    symbol and overlaps, the outline beside it, and the problems found (text in no chunk,
    chunks over budget, offsets that do not slice the source). With --html-output text, an
    HTML page's chunks show their text.
    """
    view.add_argument("file", type=Path, metavar="FILE", help="the file to split and show")
    view.add_argument(
        "-o", "--output-file", type=Path, metavar="OUT", help="the page to write (default: FILE's name + .html, here)"
    )
    add_option_flags(view)
    view.add_argument("--encoding", default="utf-8", help="the file's text encoding (default utf-8)")


def _bench_command(bench: argparse.ArgumentParser) -> None:
    """compare splitters on the same documents (--corpus DIR: your own folder)

    Run outline-splitter and other splitters (the `bench` extra) on the same corpora, print
    one table per corpus and write latest.{json,md,png} to --output-dir (default
    bench-results/).
    """
    from outline_splitter.bench import harness

    harness.add_arguments(bench)


# Each command: its handler (named command_ and the command's name) and the function that
# declares it (its arguments, and in its docstring its help and description).
COMMANDS: tuple[tuple[Callable[[argparse.Namespace], int], Callable[[argparse.ArgumentParser], None]], ...] = (
    (command_split, _split_command),
    (command_outline, _outline_command),
    (command_view, _view_command),
    (command_bench, _bench_command),
)


# The command line's own flag names and defaults, where they differ from the options':
# it splits files, so by default each file's format comes from its extension.
FLAG_NAMES: dict[str, tuple[str, ...]] = {
    "output": ("--html-output",),
    "chunk_overlap": ("--chunk-overlap", "--overlap"),
}
FLAG_DEFAULTS: dict[str, Any] = {"doc_type": AUTO}


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for every option of `SplitterOptions`, with its help text and default; a
    flag not given is left out of the namespace, so the option keeps the model's default."""
    for name, option in SplitterOptions.model_fields.items():
        default = FLAG_DEFAULTS.get(name, option.default)
        flags = FLAG_NAMES.get(name, ("--" + name.replace("_", "-"),))
        help_text = f"{option.description} (default: {_shown(default)})"
        kwargs: dict[str, Any] = {"dest": name, "help": help_text.replace("%", "%%")}
        kwargs["default"] = FLAG_DEFAULTS.get(name, argparse.SUPPRESS)
        annotation = option.annotation
        if annotation is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        elif annotation in (int, int | None):
            kwargs.update(type=int, metavar="N")
        elif annotation == tuple[str, ...]:  # one value a flag (repeat it): PATHs follow
            kwargs.update(action="append", metavar="NAME")
        elif annotation == tuple[int, ...] | None:
            kwargs.update(action="append", type=int, metavar="N")
        elif get_origin(annotation) is Literal:  # the model refuses other values, with its message
            kwargs["metavar"] = "{" + ",".join(get_args(annotation)) + "}"
        else:  # str, str | None and the tokenizer's name
            kwargs["metavar"] = "VALUE"
        parser.add_argument(*flags, **kwargs)


def _shown(default: object) -> str:
    if default is None:
        return "none"
    if isinstance(default, tuple):
        return " ".join(map(str, default)) or "none"
    return str(default)


def _deprecated_output(value: str) -> str:
    if value not in ("html", "text"):
        raise argparse.ArgumentTypeError(
            f"{value!r}: --output is HTML's output mode (html or text), now --html-output; "
            "to write the chunks to a file, use -o/--output-file"
        )
    print(f"{PROG}: warning: --output is deprecated: use --html-output {value}", file=sys.stderr)
    return value


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, not {value}")
    return number


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
