import type { Page } from "@playwright/test";

/**
 * What a screenshot shows a person at once and a width check misses (defects found before: the review list's
 * last column cut at 1280 px, a failed token's reason written over its card on a phone, a token
 * code squeezed onto four lines). Each check runs in the page, on what is displayed right now:
 *
 * - a clipped column: a table cell or header whose right edge lies outside what its scrolling
 *   frame (or the window) shows, unless that frame scrolls and says so in words (a visible
 *   `[data-scroll-hint]` beside it, components/ui/table-frame.tsx);
 * - text over text: two sibling elements whose displayed text boxes intersect (text clipped away
 *   by an overflow box, fixed and sticky layers, and screen-reader-only text do not count);
 * - text wider than its own box: text that runs past the border of the element laying it out (its
 *   nearest ancestor that is not inline: a badge, a table cell, a card), e.g. a badge's words past
 *   its rounded border or a no-wrap ID number past its cell, unless that element scrolls sideways
 *   or cuts the text with an ellipsis on purpose (text cut with no ellipsis counts);
 * - a token code broken over lines: an element marked `data-token-code` whose text takes more
 *   than one line;
 * - a date in a second format: visible text with 2026-11-24 or 11/25/2026 (the bank's one format
 *   is 24 Nov 2026, lib/bank-time.ts), or a native date input, which shows the browser's order.
 *
 * Each answers plain sentences naming the element; an empty list is a pass.
 */
export async function findLayoutDefects(page: Page): Promise<string[]> {
  // A frame's scroll hint appears once the page's script has run: a page that looks wrong is
  // looked at again a moment later before it counts.
  const first = await checkLayout(page);
  if (first.length === 0) return first;
  await page.waitForTimeout(1_000);
  return checkLayout(page);
}

function checkLayout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const defects: string[] = [];
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
      const testId = element.getAttribute("data-testid");
      return `<${element.tagName.toLowerCase()}${testId ? ` data-testid=${testId}` : ""}> "${text}"`;
    };
    // Screen-reader-only text (Tailwind's sr-only, whatever class applies it: clipped to nothing) is not on the screen.
    const hiddenCache = new Map<Element, boolean>();
    const isScreenReaderOnly = (element: Element): boolean => {
      let known = hiddenCache.get(element);
      if (known === undefined) {
        const style = getComputedStyle(element);
        known = style.clipPath === "inset(50%)" || style.clip === "rect(0px, 0px, 0px, 0px)" || (element.parentElement ? isScreenReaderOnly(element.parentElement) : false);
        hiddenCache.set(element, known);
      }
      return known;
    };
    // Displayed: laid out, visible, not inside a closed <details> or another skipped subtree.
    const isDisplayed = (element: Element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return false;
      return element.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true }) && !isScreenReaderOnly(element);
    };
    const scrollsSideways = (style: CSSStyleDeclaration) => style.overflowX !== "visible";

    // ── Clipped columns ────────────────────────────────────────────────────────────────────────
    for (const cell of document.querySelectorAll<HTMLElement>("th, td")) {
      if (!isDisplayed(cell)) continue;
      const right = cell.getBoundingClientRect().right;
      let frame: HTMLElement | null = cell.parentElement;
      while (frame && frame !== document.body && !scrollsSideways(getComputedStyle(frame))) frame = frame.parentElement;
      const isWindow = !frame || frame === document.body;
      const visibleRight = isWindow ? document.documentElement.clientWidth : frame!.getBoundingClientRect().left + frame!.clientLeft + frame!.clientWidth;
      if (right <= visibleRight + 1) continue;
      if (!isWindow) {
        const style = getComputedStyle(frame!);
        const canScroll = (style.overflowX === "auto" || style.overflowX === "scroll") && frame!.scrollWidth > frame!.clientWidth;
        const hint = frame!.parentElement?.querySelector<HTMLElement>("[data-scroll-hint]");
        if (canScroll && hint && isDisplayed(hint) && (hint.textContent ?? "").trim().length > 0) continue;
        defects.push(`clipped column: ${describe(cell)} ends at ${Math.round(right)} px, past its frame's ${Math.round(visibleRight)} px, ${canScroll ? "with no visible scroll hint" : "in a frame that does not scroll"}`);
      } else {
        defects.push(`clipped column: ${describe(cell)} ends at ${Math.round(right)} px, past the window's ${Math.round(visibleRight)} px`);
      }
    }

    // ── Text over text ─────────────────────────────────────────────────────────────────────────
    type Box = { left: number; top: number; right: number; bottom: number };
    const intersect = (a: Box, b: Box): Box => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
    const isEmpty = (box: Box) => box.right - box.left <= 0.5 || box.bottom - box.top <= 0.5;
    // Fixed and sticky layers cover what scrolls under them by design; remembered per element.
    const layeredCache = new Map<Element, boolean>();
    const layered = (element: Element): boolean => {
      let known = layeredCache.get(element);
      if (known === undefined) {
        const position = getComputedStyle(element).position;
        known = position === "fixed" || position === "sticky" || (element.parentElement ? layered(element.parentElement) : false);
        layeredCache.set(element, known);
      }
      return known;
    };
    const ownClip = (element: Element): Box | null => {
      const style = getComputedStyle(element);
      if (style.overflowX === "visible" && style.overflowY === "visible") return null;
      const rect = element.getBoundingClientRect();
      const left = rect.left + element.clientLeft;
      const top = rect.top + element.clientTop;
      return { left, top, right: left + element.clientWidth, bottom: top + element.clientHeight };
    };
    /** The part of the window an element's content can show: every overflow box around it cuts it. */
    const clipCache = new Map<Element, Box>();
    const clipBoxOf = (element: Element): Box => {
      const parent = element.parentElement;
      if (!parent || parent === document.documentElement) return { left: -1e6, top: -1e6, right: 1e6, bottom: 1e6 };
      let box = clipCache.get(element);
      if (!box) {
        box = clipBoxOf(parent);
        const parentClip = ownClip(parent);
        if (parentClip) box = intersect(box, parentClip);
        clipCache.set(element, box);
      }
      return box;
    };
    // Each displayed text node's boxes, clipped to what its overflow boxes show, credited to every ancestor.
    const textBoxes = new Map<Element, Box[]>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const owner = node.parentElement;
      if (!owner || !(node.textContent ?? "").trim() || owner.closest("script, style, noscript, svg, select, option, textarea")) continue;
      if (!isDisplayed(owner) || layered(owner)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      // The text's own element cuts it too (a two-line clamp, an ellipsis).
      const ownerClip = ownClip(owner);
      const clip = ownerClip ? intersect(clipBoxOf(owner), ownerClip) : clipBoxOf(owner);
      const boxes = [...range.getClientRects()].map((rect) => intersect(rect, clip)).filter((box) => !isEmpty(box));
      if (boxes.length === 0) continue;
      for (let current: Element | null = owner; current && current !== document.body; current = current.parentElement) {
        const list = textBoxes.get(current) ?? [];
        list.push(...boxes);
        textBoxes.set(current, list);
      }
    }
    const reported = new Set<Element>();
    for (const parent of new Set([...textBoxes.keys()].map((element) => element.parentElement).filter((element): element is HTMLElement => element !== null))) {
      const children = [...parent.children].filter((child) => textBoxes.has(child));
      for (let i = 0; i < children.length; i++) {
        for (let j = i + 1; j < children.length; j++) {
          const [a, b] = [children[i]!, children[j]!];
          if (reported.has(a) || reported.has(b)) continue;
          const overlap = textBoxes.get(a)!.some((boxA) => textBoxes.get(b)!.some((boxB) => {
            const shared = intersect(boxA, boxB);
            // More than a descender's touch: 2 px both ways.
            return shared.right - shared.left > 2 && shared.bottom - shared.top > 2;
          }));
          if (overlap) {
            reported.add(a);
            reported.add(b);
            defects.push(`text over text: ${describe(a)} and ${describe(b)}`);
          }
        }
      }
    }

    // ── Text wider than its own box ────────────────────────────────────────────────────────────
    // Each text node is laid out by its nearest ancestor that is not inline (display: inline or
    // contents): that box's border is where the text must end.
    const layoutBoxOf = (element: Element): Element => {
      let current: Element | null = element;
      while (current && current !== document.body && ["inline", "contents"].includes(getComputedStyle(current).display)) current = current.parentElement;
      return current ?? document.body;
    };
    const overflowing = new Map<Element, number>();
    const textWalker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = textWalker.nextNode(); node; node = textWalker.nextNode()) {
      const owner = node.parentElement;
      if (!owner || !(node.textContent ?? "").trim() || owner.closest("script, style, noscript, svg, select, option, textarea")) continue;
      if (!isDisplayed(owner)) continue;
      const box = layoutBoxOf(owner);
      if (box === document.body || !isDisplayed(box)) continue;
      const style = getComputedStyle(box);
      // A box that scrolls sideways shows the rest on a scroll; an ellipsis says on purpose that text is cut.
      if (style.overflowX === "auto" || style.overflowX === "scroll") continue;
      if (style.overflowX !== "visible" && style.textOverflow === "ellipsis") continue;
      const edges = box.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width === 0) continue;
        const past = Math.max(rect.right - edges.right, edges.left - rect.left);
        if (past > 1) overflowing.set(box, Math.max(past, overflowing.get(box) ?? 0));
      }
    }
    for (const [box, past] of overflowing) {
      const cut = getComputedStyle(box).overflowX !== "visible";
      defects.push(`text wider than its own box on ${location.pathname}: ${describe(box)} runs ${Math.round(past)} px past its border${cut ? ", cut off with no ellipsis" : ""}`);
    }

    // ── Token codes broken over lines ──────────────────────────────────────────────────────────
    for (const code of document.querySelectorAll<HTMLElement>("[data-token-code]")) {
      if (!isDisplayed(code)) continue;
      const range = document.createRange();
      range.selectNodeContents(code);
      const lineTops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top / 4)));
      if (lineTops.size > 1) defects.push(`token code over ${lineTops.size} lines: ${describe(code)}`);
    }

    // ── Dates in a second format ───────────────────────────────────────────────────────────────
    for (const input of document.querySelectorAll<HTMLInputElement>("input[type=date], input[type=datetime-local]")) {
      if (isDisplayed(input)) defects.push(`a native date input (it shows the browser's order, e.g. mm/dd/yyyy): name=${input.name}`);
    }
    const main = document.querySelector("main") ?? document.body;
    const strayDate = /\b(\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{4})\b/;
    const found = strayDate.exec(main.innerText);
    if (found) defects.push(`a date not in the bank's format (24 Nov 2026): "${found[0]}" in "${main.innerText.slice(Math.max(0, found.index - 40), found.index + 20).replace(/\s+/g, " ")}"`);
    return defects;
  });
}
