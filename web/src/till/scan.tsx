import { useEffect, useRef, useState } from 'preact/hooks';

interface DetectedBarcode {
  rawValue: string;
}
interface Detector {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
declare const BarcodeDetector: { new (options: { formats: string[] }): Detector } | undefined;

/** True where the browser can read barcodes from the camera (Chromium on Android and macOS, not everywhere). */
export const cameraScanning =
  typeof BarcodeDetector !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/** Reads one barcode from the camera with `BarcodeDetector`, then stops the camera. */
export function CameraScanner({
  onScan,
  onClose,
}: {
  onScan: (text: string) => void;
  onClose: (error?: string) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState('Starting the camera…');
  useEffect(() => {
    let stream: MediaStream | undefined;
    let frame = 0;
    let stopped = false;
    const detector = new BarcodeDetector!({ formats: ['code_128', 'pdf417', 'qr_code'] });
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (stopped || video.current === null) return;
        video.current.srcObject = stream;
        await video.current.play();
        setStatus("Hold the phone's barcode in front of the camera.");
        // One detection per displayed frame, on the camera's pictures: nothing is asked of any server.
        const look = async () => {
          if (stopped || video.current === null) return;
          const found = await detector.detect(video.current).catch(() => []);
          if (found[0] !== undefined) onScan(found[0].rawValue);
          else frame = requestAnimationFrame(() => void look());
        };
        void look();
      } catch (error) {
        onClose(`The camera is not available: ${(error as Error).message}`);
      }
    })();
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);
  return (
    <div class="card">
      <video ref={video} muted playsInline style={{ width: '100%', maxHeight: '240px' }} aria-label="Camera picture" />
      <p role="status">{status}</p>
      <button type="button" class="secondary" onClick={() => onClose()}>
        Stop the camera
      </button>
    </div>
  );
}
