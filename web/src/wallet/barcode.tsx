import { code128, qrcode } from 'bwip-js/browser';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

type Symbology = 'Code 128' | 'QR code';

/**
 * Code 128 (what every till scanner reads) only where each module gets at least two whole device pixels: at one
 * pixel, or at a fraction scaled by CSS, a bar's edge falls between pixels and a decoder reading a screen (a camera,
 * `zbarimg` on a screenshot) loses it. A phone at device pixel ratio 1 has about 1.1 px per module for a card's
 * barcode. Elsewhere a QR code, which every camera decoder reads, and which stays square however long the text.
 */
const MIN_CODE128_MODULE_PX = 2;
/** Wider modules gain nothing a scanner needs and only push the text under the symbol out of sight. */
const MAX_CODE128_MODULE_CSS_PX = 3;
/** A QR code as large as the room allows up to this (CSS px): a screen-filling square helps no camera. */
const MAX_QR_CSS_PX = 240;
/** Code 128's quiet zone is 10 modules each side; QR's is 4 (ISO/IEC 15417 and 18004). */
const CODE128_QUIET = 10;
const QR_QUIET = 4;

/** The room for the symbol: the figure's content width in device pixels, and the ratio of device to CSS pixels. */
interface Room {
  devicePx: number;
  ratio: number;
}

/** Modules (with quiet zones) across the symbol: bwip-js at scale 1 draws one pixel per module. */
function modulesAcross(draw: (canvas: HTMLCanvasElement) => unknown): number {
  const scratch = document.createElement('canvas');
  draw(scratch);
  return scratch.width;
}

/**
 * Draws `text` on `canvas` at whole device pixels per module, sized in CSS so that one canvas pixel is one device
 * pixel (never scaled by the browser, so never blurred); returns the symbology chosen for the room.
 */
function draw(canvas: HTMLCanvasElement, text: string, room: Room): Symbology {
  // inkspread 0: bwip-js would otherwise thin each bar by a fraction of a pixel, giving grey edges.
  const bars = (scaleX: number, scaleY: number) => (target: HTMLCanvasElement) =>
    code128(target, {
      bcid: 'code128',
      text,
      scaleX,
      scaleY,
      height: 18,
      inkspread: 0,
      paddingwidth: CODE128_QUIET,
      paddingheight: 4,
      backgroundcolor: 'FFFFFF',
    });
  const barModules = modulesAcross(bars(1, 1));
  const barScale = Math.min(Math.floor(room.devicePx / barModules), Math.floor(MAX_CODE128_MODULE_CSS_PX * room.ratio));
  let symbology: Symbology;
  if (barScale >= MIN_CODE128_MODULE_PX) {
    // The bars' height in CSS pixels stays about the same whatever the screen.
    bars(barScale, Math.max(1, Math.round(2 * room.ratio)))(canvas);
    symbology = 'Code 128';
  } else {
    const square = (scale: number) => (target: HTMLCanvasElement) =>
      qrcode(target, {
        bcid: 'qrcode',
        text,
        scale,
        inkspread: 0,
        paddingwidth: QR_QUIET,
        paddingheight: QR_QUIET,
        backgroundcolor: 'FFFFFF',
      });
    const modules = modulesAcross(square(1));
    const fits = Math.min(Math.floor(room.devicePx / modules), Math.floor((MAX_QR_CSS_PX * room.ratio) / modules));
    square(Math.max(1, fits))(canvas);
    symbology = 'QR code';
  }
  canvas.style.width = `${canvas.width / room.ratio}px`;
  canvas.style.height = `${canvas.height / room.ratio}px`;
  return symbology;
}

/**
 * The barcode as a real, scannable image drawn by bwip-js, with its text under it; the symbology and the module
 * width follow the room the figure has on this screen, and are chosen again when it changes.
 */
export function Barcode({ text }: { text: string }) {
  const figure = useRef<HTMLElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [room, setRoom] = useState<Room | undefined>(undefined);
  const [symbology, setSymbology] = useState<Symbology | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useLayoutEffect(() => {
    const element = figure.current;
    if (element === null) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const css = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const ratio = window.devicePixelRatio || 1;
      const next = { devicePx: Math.floor(css * ratio), ratio };
      setRoom((previous) => (previous?.devicePx === next.devicePx && previous.ratio === next.ratio ? previous : next));
    };
    measure();
    // The figure's width does not depend on the canvas (a block in the panel), so drawing never feeds back here.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // A zoom, or a move to a denser screen, changes the device pixel ratio and fires resize, not always the observer.
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);
  useEffect(() => {
    if (canvas.current === null || room === undefined) return;
    try {
      setSymbology(draw(canvas.current, text, room));
      setFailure(undefined);
    } catch (error) {
      setFailure(String(error));
    }
  }, [text, room]);
  return (
    <figure class="barcode" ref={figure}>
      <canvas
        ref={canvas}
        role="img"
        data-testid="barcode-image"
        data-symbology={symbology}
        aria-label={symbology === undefined ? `Barcode of ${text}` : `${symbology} barcode of ${text}`}
      />
      <figcaption>
        <output class="mono" data-testid="barcode-text" aria-label="Barcode text">
          {text}
        </output>
      </figcaption>
      {failure !== undefined && (
        <p class="notice error" role="alert">
          The barcode could not be drawn: {failure}
        </p>
      )}
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
        <circle
          cx="24"
          cy="24"
          r={r}
          fill="none"
          stroke="#0b57d0"
          stroke-width="5"
          stroke-linecap="round"
          stroke-dasharray={circumference}
          stroke-dashoffset={circumference * (1 - left / interval)}
          transform="rotate(-90 24 24)"
        />
        <text x="24" y="29" text-anchor="middle" font-size="14" font-weight="600" fill="#1a1a1a">
          {Math.ceil(left)}
        </text>
      </svg>
      <span>New password in {Math.ceil(left)} s</span>
    </div>
  );
}
