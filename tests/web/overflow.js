/* Every box whose text runs out of it: an HTML element whose content is wider or
   taller than its box (scrolling boxes aside), and an SVG text that runs past
   the right edge of the panel it starts in (or the picture). */
const found = [];
const name = (el) => `${el.tagName.toLowerCase()}#${el.id || ""}.${el.getAttribute("class") || ""} "${(el.textContent || "").trim().slice(0, 60)}"`;
for (const el of document.querySelectorAll("body *")) {
  if (el instanceof SVGElement || !el.getClientRects().length) continue;
  const style = getComputedStyle(el);
  if (style.display === "inline" || el.clientWidth === 0) continue;
  const scrolls = (v) => v === "auto" || v === "scroll";
  if (!scrolls(style.overflowX) && el.scrollWidth > el.clientWidth + 1) found.push(`wide ${name(el)} ${el.scrollWidth}>${el.clientWidth}`);
  if (!scrolls(style.overflowY) && style.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1) found.push(`tall ${name(el)}`);
}
for (const svg of document.querySelectorAll("svg")) {
  if (!svg.getClientRects().length) continue;
  const view = svg.viewBox.baseVal;
  const rects = [...svg.querySelectorAll("rect")].filter((r) => !r.closest("g.card, symbol, defs")).map((r) => r.getBBox());
  for (const text of svg.querySelectorAll("text")) {
    if (text.closest("g.card, symbol, defs") || !text.textContent.trim()) continue;
    const box = text.getBBox();
    const inside = rects.filter((r) => r.x <= box.x + 0.5 && box.x <= r.x + r.width && r.y <= box.y + box.height / 2 && box.y + box.height / 2 <= r.y + r.height && r.width < view.width * 0.9);
    const right = inside.length ? Math.min(...inside.map((r) => r.x + r.width)) : view.x + view.width;
    if (box.x + box.width > right + 1) found.push(`svg text past its panel by ${(box.x + box.width - right).toFixed(0)}: "${text.textContent.slice(0, 70)}"`);
  }
}
return found;
