import { randomInt } from 'node:crypto';

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    // Doubling starts from the rightmost payload digit, the one next to the check digit.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** True when the last digit is the Luhn check digit of the others. */
export function luhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/**
 * A new 16-digit card number: `prefix`, random digits, a Luhn check digit (so
 * a mistyped number is caught at the till). Valid for the barcode core.
 *
 * @example
 * newCardNumber('2990') // '2990518830270316'
 */
export function newCardNumber(prefix: string): string {
  let body = prefix;
  while (body.length < 15) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}
