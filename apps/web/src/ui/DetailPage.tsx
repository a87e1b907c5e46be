import type { ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { NotFound } from './NotFound';
import { Page, type PageProps } from './Page';

export interface DetailPageProps<T> extends Omit<PageProps, 'actions' | 'children'> {
  /** The record's query; an error (another tenant's record, one being deleted, none) is the not-found page. */
  query: { data: T | undefined; isError: boolean };
  /** The page actions, once the record came. */
  actions?: (record: T) => ReactNode;
  /** The sections and dialogs, once the record came. */
  children: (record: T) => ReactNode;
}

/** The frame of one record's page (a customer, machine, package…): a spinner until the record came, then its page. */
export function DetailPage<T>({ query, actions, children, ...page }: DetailPageProps<T>) {
  const record = query.data;
  if (query.isError) return <NotFound />;
  return (
    <Page {...page} actions={record === undefined ? undefined : actions?.(record)}>
      {record === undefined ? <Spinner animation="border" role="status" /> : children(record)}
    </Page>
  );
}
