import {
  type CustomerRow,
  type CustomerStatus,
  customerStatusBadge,
  customerTypeBadges,
  NEW_SIGNUP_BADGE,
} from '@portal/domain';
import { StatusBadge } from '../../ui';

/** The type badges of 002 §2.5 (DIRECT or RESELLER CLIENT, then RESELLER), then NEW SIGNUP when it is one. */
export function CustomerTypeBadges({ customer }: { customer: CustomerRow }) {
  const badges = customerTypeBadges({
    parentResellerCustomerId: customer.parentResellerCustomerId,
    resellerEnabled: customer.resellerSettingsDisplayDto?.resellerEnabled ?? false,
  });
  if (customer.newSignup) badges.push(NEW_SIGNUP_BADGE);
  return (
    <span className="d-inline-flex flex-wrap gap-1" data-testid="customer-type-badges">
      {badges.map((badge) => (
        <StatusBadge key={badge.text} status={badge.text} badge={badge} />
      ))}
    </span>
  );
}

/** A customer status; tables show the displayed one (SIGNUP_REQUESTED while there is no storage, 000 §4). */
export function CustomerStatusBadge({ status }: { status: CustomerStatus }) {
  return <StatusBadge status={status} badge={customerStatusBadge(status)} />;
}
