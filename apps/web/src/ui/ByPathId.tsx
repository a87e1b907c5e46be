import { Fragment, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { pathId } from '../app/pathIds';
import { NotFound } from './NotFound';

/**
 * A record's page by the id its path names: the not-found page for a malformed id, else the record's screen,
 * started afresh (keyed by the id) when the path names another record.
 */
export function ByPathId({ param, children }: { param: string; children: (id: number) => ReactNode }) {
  const id = pathId(useParams()[param]);
  return id === null ? <NotFound /> : <Fragment key={id}>{children(id)}</Fragment>;
}
