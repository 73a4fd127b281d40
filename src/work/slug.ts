/** A slug from a name: lowercase letters, digits and single dashes, at most 63 characters (SlugSchema). */
export function slugify(name: string, fallback = "initiative"): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 55)
    .replace(/-+$/, "");
  return s || fallback;
}

/** `base`, else `base-2`, `base-3`, ... : the first that `taken` does not hold (a suffix keeps within 63). */
export async function uniqueSlug(base: string, taken: (slug: string) => boolean | Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(slug))) return slug;
  }
}
