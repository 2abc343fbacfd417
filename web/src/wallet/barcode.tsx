import { code128, pdf417 } from 'bwip-js/browser';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Code 128 (what every till scanner reads) while the text fits a phone's width at two device pixels per module;
 * longer texts (card numbers run to 64 characters) become PDF417, which stacks rows instead of growing wider.
 */
const CODE128_MAX_LENGTH = 48;

/** The barcode as a real, scannable image drawn by bwip-js, with its text under it. */
export function Barcode({ text }: { text: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const symbology = text.length <= CODE128_MAX_LENGTH ? 'Code 128' : 'PDF417';
  useEffect(() => {
    if (canvas.current === null) return;
    try {
      // Drawn at 3 px per module: sharp on a phone's dense screen, and a camera or a decoder reads it from the pixels.
      if (symbology === 'Code 128') code128(canvas.current, { bcid: 'code128', text, scale: 3, height: 18, paddingwidth: 10, paddingheight: 4, backgroundcolor: 'FFFFFF' });
      else pdf417(canvas.current, { bcid: 'pdf417', text, scale: 3, paddingwidth: 10, paddingheight: 10, backgroundcolor: 'FFFFFF' });
      setFailure(undefined);
    } catch (error) {
      setFailure(String(error));
    }
  }, [text, symbology]);
  return (
    <figure class="barcode">
      <canvas ref={canvas} role="img" aria-label={`${symbology} barcode of ${text}`} data-testid="barcode-image" data-symbology={symbology} />
      <figcaption>
        <output class="mono" data-testid="barcode-text" aria-label="Barcode text">{text}</output>
      </figcaption>
      {failure !== undefined && <p class="notice error" role="alert">The barcode could not be drawn: {failure}</p>}
    </figure>
  );
}

/** A ring emptying until the next password; the seconds are in the text for screen readers and people alike. */
export function CountdownRing({ secondsLeft, interval }: { secondsLeft: number; interval: number }) {
  const r = 18;
  const circumference = 2 * Math.PI * r;
  const left = Math.max(0, Math.min(interval, secondsLeft));
  return (
    <div class="countdown" data-testid="countdown">
      <svg width="48" height="48" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r={r} fill="none" stroke="#c9ccd1" stroke-width="5" />
        <circle cx="24" cy="24" r={r} fill="none" stroke="#0b57d0" stroke-width="5" stroke-linecap="round"
          stroke-dasharray={circumference} stroke-dashoffset={circumference * (1 - left / interval)} transform="rotate(-90 24 24)" />
        <text x="24" y="29" text-anchor="middle" font-size="14" font-weight="600" fill="#1a1a1a">{Math.ceil(left)}</text>
      </svg>
      <span>New password in {Math.ceil(left)} s</span>
    </div>
  );
}
