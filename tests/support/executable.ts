/**
 * What an executable file is built for, read from its header as the kernel reads it: an ELF's
 * class, CPU and program interpreter (which C library it loads), a Mach-O's CPU and whether it
 * carries a code signature (macOS on Apple silicon runs no unsigned binary).
 */
export interface Executable {
  format: "elf" | "macho";
  cpu: "x64" | "arm64" | `unknown ${number}`;
  /** ELF: PT_INTERP, the dynamic loader (`/lib/ld-musl-x86_64.so.1` on musl). */
  interpreter?: string;
  /** Mach-O: an LC_CODE_SIGNATURE load command is there. */
  signed?: boolean;
}

const ELF_CPU: Record<number, Executable["cpu"]> = { 0x3e: "x64", 0xb7: "arm64" };
const MACHO_CPU: Record<number, Executable["cpu"]> = { 0x01000007: "x64", 0x0100000c: "arm64" };
const PT_INTERP = 3;
const LC_CODE_SIGNATURE = 0x1d;

/** The header of a 64-bit little-endian ELF or Mach-O file; null for anything else. */
export function readExecutable(bytes: Uint8Array): Executable | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64) return null;
  if (view.getUint32(0, false) === 0x7f454c46) {
    // 64-bit (class 2), little-endian (data 1): every platform troupe ships for
    if (bytes[4] !== 2 || bytes[5] !== 1) return null;
    const machine = view.getUint16(0x12, true);
    const phoff = Number(view.getBigUint64(0x20, true));
    const phentsize = view.getUint16(0x36, true);
    const phnum = view.getUint16(0x38, true);
    let interpreter: string | undefined;
    for (let i = 0; i < phnum; i++) {
      const ph = phoff + i * phentsize;
      if (view.getUint32(ph, true) !== PT_INTERP) continue;
      const offset = Number(view.getBigUint64(ph + 8, true));
      const size = Number(view.getBigUint64(ph + 32, true));
      interpreter = new TextDecoder().decode(bytes.subarray(offset, offset + size)).replace(/\0+$/, "");
    }
    return { format: "elf", cpu: ELF_CPU[machine] ?? `unknown ${machine}`, interpreter };
  }
  if (view.getUint32(0, true) === 0xfeedfacf) {
    const cputype = view.getUint32(4, true);
    const ncmds = view.getUint32(16, true);
    let signed = false;
    let at = 32;
    for (let i = 0; i < ncmds && at + 8 <= bytes.length; i++) {
      if (view.getUint32(at, true) === LC_CODE_SIGNATURE) signed = true;
      at += view.getUint32(at + 4, true);
    }
    return { format: "macho", cpu: MACHO_CPU[cputype] ?? `unknown ${cputype}`, signed };
  }
  return null;
}
