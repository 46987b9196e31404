import type { ComponentType } from 'react';

/**
 * The administration pages that are configurations of the generic renderers: route path -> the
 * definition file in schemas/ui/admin/<name>.json. Only pages whose server CRUD exists are here.
 */
export const ADMIN_PAGES: Record<string, string> = {
  '/authoritymanagement/organization': 'organisations',
  '/authoritymanagement/userAccountManagement': 'users',
  '/authoritymanagement/onlineUser': 'online-users',
  '/authoritymanagement/companyInfo': 'company',
  '/authoritymanagement/sysTenantConfig': 'tenant-config',
  '/authoritymanagement/receiverSetting': 'receivers',
  '/authoritymanagement/hospitalSiteManagement': 'hospitals',
  '/authoritymanagement/drugInfo': 'drugs',
  '/checklog/loginOperationLog': 'login-log',
  '/holoxcontrol/lessee': 'tenants',
  '/holoxcontrol/loginLog': 'operator-login-log',
  '/holoxcontrol/roleConfig': 'operator-roles',
  '/holoxcontrol/userRole': 'operator-users',
  '/holoxcontrol/userJurisdiction': 'operator-jurisdiction',
  '/holoxcontrol/systemConfig': 'menus',
  '/holoxcontrol/dict': 'dictionaries',
  '/holoxcontrol/announcementManagement': 'announcements',
  '/holoxcontrol/messageTemplate': 'message-templates',
  '/holoxcontrol/projectSaeTemplate': 'sae-templates',
  '/holoxcontrol/regulatorDatum': 'regulators',
  '/holoxcontrol/linelistingField': 'line-listing-fields',
  '/casemanagement/unblindingManagement': 'unblinding-applications',
  '/casemanagement/queriesProcess': 'queries-process',
  '/casemanagement/queryLetterManagement': 'query-letters',
  '/home/pendingqueries': 'pending-queries',
  '/checklog/reportCheck': 'report-check',
  '/checklog/queryTrace': 'query-trace',
  '/checklog/queryControl': 'qc-trace',
  '/checklog/logHistory': 'data-change-log',
  '/submittransfer/viewExpeditedReports': 'expedited-reports',
  '/checklog/submitCheck': 'submit-checks',
};

/** A page's own panel shown below its lists (e.g. the message templates' preview), loaded on demand. */
export const ADMIN_PAGE_PANELS: Record<string, () => Promise<{ default: ComponentType }>> = {
  '/holoxcontrol/messageTemplate': () => import('./MessageTemplatePreview'),
  '/casemanagement/unblindingManagement': () => import('../unblinding/BlindingListPanel'),
};
