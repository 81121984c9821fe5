/* The replay viewer: a match's replay (apps.web.replay.replay_data) stepped
   through in the browser. ReplayViewer.mount(element, data) shows one;
   ReplayViewer.fromEmbedded(element, base64) unpacks the gzip + base64 data a
   standalone file embeds. Keys: ← → step, Home/End first/last. */
"use strict";

const ReplayViewer = (() => {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  /* One vòng's result explained: the rows, the total, the payments. */
  function resultBox(result, names) {
    const rows = result.rows.map(([part, why, points]) =>
      el("tr", {}, el("td", {}, part), el("td", {}, why), el("td", { class: "pts" }, "+" + points)));
    rows.push(el("tr", { class: "total" }, el("td", {}, "total"), el("td", {}, ""),
      el("td", { class: "pts" }, result.points + " Điểm")));
    const paid = result.payments.map((p, s) => `${names[s]} ${p >= 0 ? "+" : ""}${p}`).join(", ");
    return el("div", { class: "result" }, el("h3", {}, result.title),
      el("div", {}, result.summary), el("table", {}, ...rows), el("div", {}, "paid: " + paid));
  }

  function mount(root, data) {
    const last = data.steps.length - 1;
    let step = 0;
    const picture = el("div", { class: "picture", id: "replay-picture" });
    const slider = el("input", { type: "range", min: 0, max: last, value: 0, id: "replay-slider" });
    const counter = el("span", { id: "replay-step" });
    const godView = el("input", { type: "checkbox", id: "replay-god", checked: "" });
    const seatSelect = el("select", { id: "replay-seat" },
      ...data.names.map((name, s) => el("option", { value: String(s) }, name)));
    const vongSelect = el("select", { id: "replay-vong" },
      ...data.vongs.map((v, i) => el("option", { value: String(i) }, v.title)));
    const events = el("ul", { class: "step-events", id: "replay-events" });
    const result = el("div", { id: "replay-result" });
    const button = (label, id, go) => el("button", { type: "button", id, onclick: go }, label);
    const controls = el("div", { class: "controls" },
      button("« first", "replay-first", () => show(0)),
      button("◀ back", "replay-back", () => show(step - 1)),
      button("forward ▶", "replay-forward", () => show(step + 1)),
      button("last »", "replay-last", () => show(last)),
      slider, counter,
      el("label", {}, "vòng ", vongSelect),
      el("label", {}, godView, " show hidden hands"),
      el("label", {}, " else as ", seatSelect));
    root.replaceChildren(controls, el("div", { class: "layout" }, picture,
      el("aside", { class: "side" }, el("h2", {}, "This step"), events,
        el("h2", {}, "The last vòng's result"), result)));

    function view() { return godView.checked ? "god" : seatSelect.value; }
    function vongAt(i) {
      let found = 0;
      data.vongs.forEach((v, k) => { if (v.start <= i) found = k; });
      return found;
    }
    function svgOf(i) {
      const runs = data.pictures[view()][i];
      const parts = [];
      for (let k = 0; k < runs.length; k += 2) {
        parts.push(data.lines.slice(runs[k], runs[k] + runs[k + 1]).join("\n"));
      }
      return parts.join("\n");
    }
    function show(i) {
      step = Math.max(0, Math.min(last, i));
      picture.innerHTML = svgOf(step);
      slider.value = step;
      const current = data.steps[step];
      counter.textContent = `step ${step} / ${last}` + (current.action ? ` · ${current.action}` : " · the deal");
      const k = vongAt(step);
      vongSelect.value = String(k);
      const seat = godView.checked ? null : Number(seatSelect.value);
      const seen = current.events.filter(([, who]) => seat === null || who < 0 || who === seat);
      events.replaceChildren(...(seen.length ? seen.map(([line]) => el("li", {}, line))
        : [el("li", {}, "(nothing this seat sees)")]));
      const done = data.vongs.filter((v) => v.result && v.result.step <= step);
      const shown = done.length ? [resultBox(done[done.length - 1].result, data.names)]
        : ["no vòng finished yet"];
      const vong = data.vongs[k];
      if (vong.result && vong.result.step > step) {
        shown.push(el("p", { class: "jump", id: "replay-to-end",
          onclick: () => show(vong.result.step) }, `${vong.title} is not over: jump to its end`));
      }
      result.replaceChildren(...shown);
    }
    slider.addEventListener("input", () => show(Number(slider.value)));
    vongSelect.addEventListener("change", () => show(data.vongs[Number(vongSelect.value)].start));
    godView.addEventListener("change", () => show(step));
    seatSelect.addEventListener("change", () => { godView.checked = false; show(step); });
    root.tabIndex = 0;
    root.addEventListener("keydown", (e) => {
      const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last }[e.key];
      if (to !== undefined) { e.preventDefault(); show(to); }
    });
    show(0);
    root.dataset.ready = "true";
    return { show };
  }

  async function fromEmbedded(root, base64) {
    const bytes = Uint8Array.from(atob(base64.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const data = JSON.parse(await new Response(stream).text());
    return mount(root, data);
  }

  return { mount, fromEmbedded, resultBox };
})();
