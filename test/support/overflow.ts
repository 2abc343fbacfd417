import type { Page } from 'playwright-core';

/**
 * What on the page does not fit: the page wider than the viewport, an element reaching past the viewport's right
 * edge, or a box whose content is cut off (scrolled or clipped sideways, as a basket too wide for its column). Each
 * as `tag.class#testid: why`. Visually hidden elements (screen-reader text, clipped) are left out.
 */
export function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.classList.length ? `.${Array.from(el.classList).join('.')}` : ''}` +
      `${el.getAttribute('data-testid') ? `#${el.getAttribute('data-testid')}` : ''}`;
    if (document.documentElement.scrollWidth > width)
      found.push(`page: ${document.documentElement.scrollWidth} px wide in a ${width} px viewport`);
    // Clipped to nothing (`clip: rect(0 0 0 0)`, the screen-reader-only pattern): not seen, so never cut off.
    const clipped = (el: Element | null): boolean =>
      el !== null && (getComputedStyle(el).clip.startsWith('rect(') || clipped(el.parentElement));
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || clipped(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 1) found.push(`${name(el)}: reaches ${Math.round(box.right)} px of ${width}`);
      const cuts = style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowX === 'hidden';
      if (cuts && el.scrollWidth > el.clientWidth + 1)
        found.push(`${name(el)}: ${el.scrollWidth} px of content in ${el.clientWidth} px, cut off`);
    }
    return found;
  });
}
