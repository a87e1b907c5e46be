import { type ComponentType, lazy, Suspense, useState } from 'react';

const shown = (props: object) => (props as { show?: boolean }).show === true;

/**
 * A dialog whose code loads when it first opens, not with the page holding it (issue 31, phones: the task page's
 * first load carried 26 KB gzip of dialogs nobody had opened). `isOpen` reads from its props whether it shows (its
 * `show` unless told); once opened it stays mounted, so it closes as it always did. `preload` loads it ahead, and
 * `preloadProps` does so when the pointer comes over, or the focus comes to, the control that opens it.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean = shown,
) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loaded = () => {
    loading ??= load().then((component) => ({ default: component }));
    return loading;
  };
  const Dialog = lazy(loaded) as unknown as ComponentType<P>;
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(false);
    if (!opened && isOpen(props)) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  const preload = () => void loaded();
  return Object.assign(LazyDialog, { preload, preloadProps: { onPointerEnter: preload, onFocus: preload } });
}
