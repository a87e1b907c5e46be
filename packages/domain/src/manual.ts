/**
 * The desktop-app user manual page (000 §1): numbered chapters whose heading size follows their depth,
 * 2, 1.5 and 1.25 rem, then 1 rem for every deeper level.
 */

const HEADING_REM = [2, 1.5, 1.25] as const;

/** The heading size of a chapter at `depth` (1 = a top chapter), in rem. */
export function manualHeadingRem(depth: number): number {
  return HEADING_REM[depth - 1] ?? 1;
}

/** The heading level (h2…h6) of a chapter at `depth`: the page's own title is the h1. */
export function manualHeadingLevel(depth: number): 2 | 3 | 4 | 5 | 6 {
  return Math.min(depth + 1, 6) as 2 | 3 | 4 | 5 | 6;
}

export interface ManualChapter<T> {
  id: string;
  title: string;
  body: T;
  chapters?: ManualChapter<T>[];
}

export interface NumberedChapter<T> {
  id: string;
  title: string;
  body: T;
  /** '1', '2.3', '2.3.1'. */
  number: string;
  depth: number;
  chapters: NumberedChapter<T>[];
}

/** Numbers chapters in order, each level from 1 under its parent's number. */
export function numberChapters<T>(chapters: ManualChapter<T>[], parent = ''): NumberedChapter<T>[] {
  return chapters.map((chapter, index) => {
    const number = parent === '' ? String(index + 1) : `${parent}.${index + 1}`;
    return {
      id: chapter.id,
      title: chapter.title,
      body: chapter.body,
      number,
      depth: number.split('.').length,
      chapters: numberChapters(chapter.chapters ?? [], number),
    };
  });
}
