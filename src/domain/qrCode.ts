// An otpauth:// address as a QR code an authenticator app scans: as block characters for the
// console pane, as an image for the Security page. One module, so both show the same code.

import QRCode from 'qrcode';

/** Rows of block characters (two modules per character cell). */
export const qrText = async (text: string): Promise<string> =>
  (await QRCode.toString(text, { type: 'utf8', errorCorrectionLevel: 'L' })).trimEnd();

/** A PNG data: URL, 200 pixels square with a quiet zone. */
export const qrImage = (text: string): Promise<string> =>
  QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 200 });
