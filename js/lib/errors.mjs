// The errors of a signature that cannot be recovered: one class per kind of the Rust
// crate's `asmcrypto::Error`, each with a stable `code`. The Rust side (js/src/lib.rs,
// `status`) returns the numbers in STATUS.

/** A signature that cannot be recovered: the base class of asmcrypto's errors. */
export class AsmcryptoError extends Error {
  constructor(message, code = 'ASMCRYPTO_ERROR') {
    super(message);
    this.name = new.target.name;
    /** A stable string naming the kind of error. */
    this.code = code;
  }
}

/** The recovery id v is not 0, 1, 27 or 28 (the byte given is `v`). */
export class InvalidRecoveryIdError extends AsmcryptoError {
  constructor(v) {
    super(`invalid recovery id ${v}`, 'ASMCRYPTO_INVALID_RECOVERY_ID');
    /** The recovery id byte that was given. */
    this.v = v;
  }
}

/** The signature's r is zero or not below the group order n. */
export class InvalidRError extends AsmcryptoError {
  constructor() {
    super('signature r is zero or not below the group order', 'ASMCRYPTO_INVALID_R');
  }
}

/** The signature's s is zero or not below the group order n. */
export class InvalidSError extends AsmcryptoError {
  constructor() {
    super('signature s is zero or not below the group order', 'ASMCRYPTO_INVALID_S');
  }
}

/** The signature's r is not the x-coordinate of a point on secp256k1. */
export class NotOnCurveError extends AsmcryptoError {
  constructor() {
    super('signature r is not the x-coordinate of a point on secp256k1', 'ASMCRYPTO_NOT_ON_CURVE');
  }
}

/** The recovered public key would be the point at infinity. */
export class PointAtInfinityError extends AsmcryptoError {
  constructor() {
    super('recovered public key is the point at infinity', 'ASMCRYPTO_POINT_AT_INFINITY');
  }
}

/** The Rust side's statuses (js/src/lib.rs). */
export const STATUS = Object.freeze({
  OK: 0,
  INVALID_RECOVERY_ID: 1,
  INVALID_R: 2,
  INVALID_S: 3,
  NOT_ON_CURVE: 4,
  POINT_AT_INFINITY: 5,
  OTHER: 6,
  BAD_ARGUMENT: 100,
});

/** The error for a status the Rust side returned; `v` is the signature's last byte. */
export function recoveryError(status, v) {
  switch (status) {
    case STATUS.INVALID_RECOVERY_ID:
      return new InvalidRecoveryIdError(v);
    case STATUS.INVALID_R:
      return new InvalidRError();
    case STATUS.INVALID_S:
      return new InvalidSError();
    case STATUS.NOT_ON_CURVE:
      return new NotOnCurveError();
    case STATUS.POINT_AT_INFINITY:
      return new PointAtInfinityError();
    case STATUS.OTHER:
      return new AsmcryptoError('the signature cannot be recovered');
    default:
      // Only a caller that bypasses this package's argument checks reaches the Rust side
      // with a wrong length.
      return new AsmcryptoError(`internal error: status ${status}`, 'ASMCRYPTO_INTERNAL');
  }
}
