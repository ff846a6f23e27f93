// The page of outline_splitter.view: select a chunk (click, j / k, a link) to see its details.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("data").textContent);
  const byIndex = new Map(data.chunks.map((c) => [c.i, c]));
  const byId = new Map(data.chunks.filter((c) => c.id).map((c) => [c.id, c]));
  const leaves = data.chunks.filter((c) => c.role !== "parent");
  const detail = document.getElementById("detail");
  let current = -1;

  function esc(value) {
    const entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
    return String(value).replace(/[&<>"]/g, (ch) => entities[ch]);
  }

  // Text mode has two tabs: the chunks' text and the HTML source they come from.
  function show(tab) {
    if (!data.text_mode) return;
    for (const button of document.querySelectorAll(".tabs button")) {
      button.classList.toggle("on", button.dataset.tab === tab);
    }
    document.getElementById("text").hidden = tab !== "text";
    document.getElementById("source").hidden = tab !== "source";
  }

  function overlap(shared) {
    return shared[0] ? esc(shared[0]) + " chars <q>" + esc(shared[1]) + "</q>" : "none";
  }

  function select(i, scroll) {
    const c = byIndex.get(i);
    if (!c) return;
    for (const old of document.querySelectorAll(".sel")) old.classList.remove("sel");
    for (const id of ["c" + i, "s" + i]) {
      const element = document.getElementById(id);
      if (element) element.classList.add("sel");
    }
    const target = document.getElementById("c" + i);
    if (scroll && target) target.scrollIntoView({ block: "center" });
    current = leaves.indexOf(c);
    const pct = Math.min(100, Math.round((100 * c.t) / data.budget));
    const bar = '<div class="bar"><i class="' + (c.t > data.budget ? "over" : "") + '" style="width:' + pct + '%"></i></div>';
    const rows = [
      ["tokens", esc(c.t) + " / " + esc(data.budget) + bar],
      ["span", "[" + c.s + ", " + c.e + ") · lines " + esc(c.lines[0]) + "-" + esc(c.lines[1])],
      [c.sym ? "symbol" : "heading path", c.path ? esc(c.path) : '<span class="hint">(none)</span>'],
      ["kinds", esc(c.kinds.join(", "))],
    ];
    if (c.sid) rows.push(["section id", esc(c.sid)]);
    if (c.so[0] || c.eo[0]) {
      rows.push(["overlap before", overlap(c.so)]);
      rows.push(["overlap after", overlap(c.eo)]);
    }
    if (c.role) rows.push(["role", esc(c.role)]);
    const parent = c.parent && byId.get(c.parent);
    if (parent) rows.push(["parent", '<a href="#" data-chunk="' + parent.i + '">#' + parent.i + " " + esc(parent.path) + "</a>"]);
    rows.push(["id", esc(c.id || "")]);
    const own = data.problems.filter((p) => p[4] === i).map((p) => '<li class="bad">' + esc(p[3]) + "</li>").join("");
    detail.innerHTML =
      "<h2>Chunk #" + c.i + "</h2><dl>" +
      rows.map((r) => "<dt>" + r[0] + "</dt><dd>" + r[1] + "</dd>").join("") +
      "</dl>" + (own ? "<ul>" + own + "</ul>" : "");
    try {
      history.replaceState(null, "", "#c" + i);  // a link to the chunk
    } catch (error) {
      // a sandboxed frame (the Jupyter view) may not change its address: nothing to link
    }
  }

  // The leaf chunk whose span starts at or before `offset` (the last such).
  function at(offset) {
    let lo = 0, hi = leaves.length - 1, found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (leaves[mid].s <= offset) { found = leaves[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  function scrollTo(element) {
    if (element) element.scrollIntoView({ block: "center" });
  }

  document.addEventListener("click", (event) => {
    const tab = event.target.closest(".tabs button");
    if (tab) return show(tab.dataset.tab);
    const link = event.target.closest("a");
    if (link && link.classList.contains("srclink")) {
      event.preventDefault();
      const i = +link.closest(".chunk").dataset.index;
      show("source");
      select(i, false);
      return scrollTo(document.getElementById("s" + i));
    }
    if (link && link.dataset.chunk) {
      event.preventDefault();
      show("text");
      return select(+link.dataset.chunk, true);
    }
    if (link && link.dataset.start) {
      // an outline node or an uncovered span: the chunk it starts in, or the span itself
      event.preventDefault();
      const gap = document.querySelector('.gap[data-start="' + link.dataset.start + '"]');
      const c = at(+link.dataset.start);
      show(gap ? "source" : "text");
      if (c) select(c.i, !gap);
      return scrollTo(gap);
    }
    const chunk = event.target.closest(".chunk,.span");
    if (chunk) select(+chunk.dataset.index, false);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "j" && event.key !== "k") return;
    const step = event.key === "j" ? 1 : -1;
    const next = leaves[Math.max(0, Math.min(leaves.length - 1, current + step))];
    if (next) select(next.i, true);
  });

  const hash = /^#c(\d+)$/.exec(location.hash);
  if (hash) select(+hash[1], true);
})();
