import { ArgumentError } from '../core/errors.js';
import { show } from '../core/options.js';

/** An immutable complex scalar. Structurally compatible with mathjs `Complex` ({ re, im }). */
export class Complex {
  constructor(
    readonly re: number,
    readonly im: number = 0,
  ) {
    if (typeof re !== 'number' || typeof im !== 'number') {
      throw new ArgumentError(`Complex: re and im must be numbers, got ${show(re)} and ${show(im)}`);
    }
  }
  static from(z: ComplexLike | number): Complex {
    if (typeof z !== 'number' && !isComplexLike(z)) throw new ArgumentError(`Complex.from: z must be a number or {re, im}, got ${show(z)}`);
    return typeof z === 'number' ? new Complex(z, 0) : new Complex(z.re, z.im);
  }
  add(o: ComplexLike): Complex { return new Complex(this.re + o.re, this.im + o.im); }
  sub(o: ComplexLike): Complex { return new Complex(this.re - o.re, this.im - o.im); }
  mul(o: ComplexLike): Complex {
    return new Complex(this.re * o.re - this.im * o.im, this.re * o.im + this.im * o.re);
  }
  /** Smith's algorithm: no overflow for large |o| where the quotient is representable. */
  div(o: ComplexLike): Complex {
    if (Math.abs(o.re) >= Math.abs(o.im)) {
      const r = o.im / o.re, d = o.re + o.im * r;
      return new Complex((this.re + this.im * r) / d, (this.im - this.re * r) / d);
    }
    const r = o.re / o.im, d = o.re * r + o.im;
    return new Complex((this.re * r + this.im) / d, (this.im * r - this.re) / d);
  }
  conj(): Complex { return new Complex(this.re, -this.im); }
  abs(): number { return Math.hypot(this.re, this.im); }
  arg(): number { return Math.atan2(this.im, this.re); }
  equals(o: ComplexLike): boolean { return this.re === o.re && this.im === o.im; }
  toString(): string {
    return this.im < 0 || Object.is(this.im, -0) ? `${this.re} - ${-this.im}i` : `${this.re} + ${this.im}i`;
  }
}

export interface ComplexLike {
  readonly re: number;
  readonly im: number;
}

export function isComplexLike(v: unknown): v is ComplexLike {
  return typeof v === 'object' && v !== null && typeof (v as ComplexLike).re === 'number' &&
    typeof (v as ComplexLike).im === 'number';
}
