import {
  MESSAGES,
  STORAGE_ACCOUNT_LABELS,
  STORAGE_CREDENTIAL_TYPE_TEXTS,
  type StorageCredentialType,
  type StorageLocationRef,
  storageLocationUrl,
} from '@portal/domain';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../ui';

const TEXT = MESSAGES.storageAccountPages;

export const yesNo = (value: boolean) => (value ? TEXT.yes : TEXT.no);

export const credentialTypeText = (type: StorageCredentialType | null) =>
  type === null ? TEXT.none : STORAGE_CREDENTIAL_TYPE_TEXTS[type];

/** A storage location a user or key serves: its name, linking to the location's page. */
function LocationLink({ location }: { location: StorageLocationRef | null }) {
  if (location === null) return null;
  return <Link to={storageLocationUrl(location.customerId, location.id)}>{location.name}</Link>;
}

/** The storage credentials cell (001 §2): its parts, one per line. */
function CredentialsCell({ parts }: { parts: ReadonlyArray<React.ReactNode> }) {
  return (
    <div className="small">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts are positional
        <div key={index}>{part}</div>
      ))}
    </div>
  );
}

interface WithCredentials {
  storageCredentials: { type: StorageCredentialType | null; storageLocation: StorageLocationRef | null };
}

/**
 * The Storage credentials column of the users and access keys tables (001 §2): the other half of the pair (a user's
 * key, a key's user), its type and the location it serves.
 */
export function credentialsColumn<T extends WithCredentials>(
  pairedWith: (row: T) => string | null,
): DataTableColumn<T> {
  return {
    key: 'credentials',
    header: STORAGE_ACCOUNT_LABELS.storageCredentials,
    render: (row) => (
      <CredentialsCell
        parts={[
          pairedWith(row),
          credentialTypeText(row.storageCredentials.type),
          <LocationLink key="location" location={row.storageCredentials.storageLocation} />,
        ]}
      />
    ),
  };
}
