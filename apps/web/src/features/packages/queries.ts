import { type Audience, ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Query keys of the package pages: the customer's table, one package's page, storage and machines. */
export const packageKeys = {
  all: ['packages'] as const,
  lists: () => [...packageKeys.all, 'list'] as const,
  package: (packageId: number) => [...packageKeys.all, 'package', packageId] as const,
  detail: (packageId: number) => [...packageKeys.package(packageId), 'detail'] as const,
  storage: (packageId: number) => [...packageKeys.package(packageId), 'storage'] as const,
  machines: (packageId: number) => ['machines', 'list', 'package', packageId] as const,
};

/** Which package page: the customer's own, or a provider's or reseller's under the customer. */
export interface PackagePageRef {
  audience: Audience;
  customerId: number;
  packageId: number;
}

/** The page's detail, read on its audience's path. */
function fetchDetail({ audience, customerId, packageId }: PackagePageRef) {
  if (audience === 'customer') return getResult(routeCall(ROUTES.packages.customerDetail, { packageId }));
  if (audience === 'reseller') return getResult(routeCall(ROUTES.packages.resellerDetail, { customerId, packageId }));
  return getResult(routeCall(ROUTES.packages.providerDetail, { customerId, packageId }));
}

/** One package's page data on its audience's path (the page path answers JSON callers). */
export function usePackage(ref: PackagePageRef) {
  return useQuery({
    queryKey: packageKeys.detail(ref.packageId),
    queryFn: () => fetchDetail(ref),
    retry: false,
  });
}

/** The package's storage details (000 §3); `version` is what the row shows, so a changed row reads again. */
export function usePackageStorage(packageId: number, version: unknown) {
  return useRouteQuery(
    [...packageKeys.storage(packageId), version],
    ROUTES.packages.storage,
    { packageId },
    { retry: false },
  );
}
