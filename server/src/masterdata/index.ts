/**
 * Platform master data kept by the platform operator (/holoxcontrol): dictionaries (types and
 * entries, with the `/system/dictCode/updateSelectCode` call of SPEC section 7), announcements
 * (read by every signed-in user as notices), regulators the platform docks with, and the fields
 * line listings may show; and the permission and menu tree (read-only: it is declared in
 * schemas/menus, each entry with its type, permission and serving module). Each list is the generic entity CRUD of server/src/entities over its schema
 * in schemas/entities, with hooks only where behaviour differs.
 */
import { requirePrincipal } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import type { CollectionDefinition, Handle } from '../store';
import { entityRoutes, entityView } from '../entities';
import { isCountryCode } from '../entities';
import { mountedModules } from '../access';
import { menuItems } from '../access';
import type { MenuItem } from '../access';

export const MASTERDATA = {
  dictTypes: 'dictTypes',
  dictCodes: 'dictCodes',
  announcements: 'announcements',
  regulators: 'regulators',
  lineListingFields: 'lineListingFields',
} as const;

interface DictType {
  code: string;
  nameCn: string;
  nameEn: string;
  status: 'normal' | 'disabled';
}

interface DictCode {
  dictTypeCode: string;
  dictCode: string;
  dictCodeNameCn: string;
  dictCodeNameEn: string;
  sort?: number;
  status: 'normal' | 'disabled';
}

interface Announcement {
  title: string;
  titleEn?: string;
  content: string;
  contentEn?: string;
  level: 'info' | 'important';
  status: 'draft' | 'published' | 'withdrawn';
  publishAt: string;
  expireAt?: string;
  deleted?: boolean;
}

interface Regulator {
  country: string;
  authorityCode: string;
}

interface LineListingField {
  fieldKey: string;
  nameCn: string;
  nameEn: string;
}

const collection = (name: string, indexes: CollectionDefinition['indexes']): CollectionDefinition => ({
  name,
  scope: 'platform',
  audited: true,
  indexes,
});

export const masterdataCollections: CollectionDefinition[] = [
  collection(MASTERDATA.dictTypes, [{ fields: { deleted: 1, code: 1 } }]),
  collection(MASTERDATA.dictCodes, [
    { fields: { deleted: 1, dictTypeCode: 1, sort: 1 } },
    // The list's sort by display order across types.
    { fields: { deleted: 1, sort: 1 } },
  ]),
  collection(MASTERDATA.announcements, [
    { fields: { deleted: 1, status: 1, publishAt: -1 } },
    { fields: { deleted: 1, publishAt: 1 } },
  ]),
  collection(MASTERDATA.regulators, [
    { fields: { deleted: 1, authorityCode: 1 } },
    { fields: { deleted: 1, country: 1 } },
  ]),
  collection(MASTERDATA.lineListingFields, [
    { fields: { deleted: 1, sort: 1 } },
    { fields: { deleted: 1, fieldKey: 1 } },
  ]),
];

const notDeleted = { deleted: { $ne: true } };

/** A field name must not repeat another field's in either language (SPEC section 5, templates). */
async function assertDistinctNames(input: LineListingField, handle: Handle, id?: string): Promise<void> {
  const others = handle.collection<LineListingField>(MASTERDATA.lineListingFields);
  for (const [field, value] of [
    ['nameCn', input.nameCn],
    ['nameEn', input.nameEn],
  ] as const) {
    const filter: Record<string, unknown> = { ...notDeleted, [field]: value };
    if (id) filter._id = { $ne: id };
    if (await others.count(filter)) throw errors.badRequest('masterdata.fieldNameTaken', { name: value });
  }
}

export const masterdataModule = defineModule({
  name: 'masterdata',
  dependsOn: ['access'],
  prefix: '',
  collections: masterdataCollections,
  routes(router, deps) {
    entityRoutes<DictType>(router, {
      path: '/operator/dict-types',
      collection: MASTERDATA.dictTypes,
      scope: 'platform',
      entity: 'dict-type',
      permission: 'holoxcontrol:dict',
      sort: { code: 1 },
      sortable: ['code'],
      exact: ['status'],
      keywordFields: ['code', 'nameCn', 'nameEn'],
      notFound: 'masterdata.dictTypeNotFound',
      unique: { fields: ['code'], message: 'masterdata.dictTypeTaken' },
      async assertUnused(id, handle) {
        const type = await handle.collection<DictType>(MASTERDATA.dictTypes).findOne({ _id: id });
        const entries = await handle
          .collection<DictCode>(MASTERDATA.dictCodes)
          .count({ ...notDeleted, dictTypeCode: type?.code });
        if (entries) throw errors.badRequest('masterdata.dictTypeInUse', { count: entries });
      },
    });

    entityRoutes<DictCode>(router, {
      path: '/operator/dict-codes',
      collection: MASTERDATA.dictCodes,
      scope: 'platform',
      entity: 'dict-code',
      permission: 'holoxcontrol:dict',
      sort: { dictTypeCode: 1, sort: 1, dictCode: 1 },
      sortable: ['dictTypeCode', 'sort'],
      exact: ['dictTypeCode', 'status'],
      keywordFields: ['dictCode', 'dictCodeNameCn', 'dictCodeNameEn'],
      notFound: 'masterdata.dictCodeNotFound',
      unique: { fields: ['dictTypeCode', 'dictCode'], message: 'masterdata.dictCodeTaken' },
      async check(input, handle) {
        const type = await handle
          .collection<DictType>(MASTERDATA.dictTypes)
          .findOne({ ...notDeleted, code: input.dictTypeCode });
        if (!type) throw errors.badRequest('masterdata.dictTypeUnknown', { code: input.dictTypeCode });
      },
    });

    // SPEC section 7, verbatim: the entry an edit form opens with (it reads dictCodeNameCn).
    router.route<{ sysDictCodeId: string }>(
      {
        method: 'post',
        path: '/system/dictCode/updateSelectCode',
        summary: 'One dictionary entry by id, for its edit form',
        permission: 'holoxcontrol:dict',
        body: {
          type: 'object',
          required: ['sysDictCodeId'],
          additionalProperties: false,
          properties: { sysDictCodeId: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
      async (c, { body }) => {
        const platform = c.get('deps').store.platform({ userId: requirePrincipal(c).userId });
        const entry = await platform
          .collection<DictCode & { deleted?: boolean }>(MASTERDATA.dictCodes)
          .findOne({ _id: body.sysDictCodeId });
        if (!entry || entry.deleted) throw errors.notFound('masterdata.dictCodeNotFound');
        return { ...entityView(entry), sysDictCodeId: entry._id };
      },
    );

    entityRoutes<Announcement>(router, {
      path: '/operator/announcements',
      collection: MASTERDATA.announcements,
      scope: 'platform',
      entity: 'announcement',
      permission: 'holoxcontrol:announcementManagement',
      sort: { publishAt: -1 },
      sortable: ['publishAt'],
      exact: ['status', 'level'],
      keywordFields: ['title', 'titleEn', 'content', 'contentEn'],
      notFound: 'masterdata.announcementNotFound',
      check(input) {
        if (input.expireAt && Date.parse(input.expireAt) <= Date.parse(input.publishAt))
          throw errors.badRequest('masterdata.expiryBeforePublication');
      },
    });

    router.route(
      {
        method: 'get',
        path: '/notices',
        summary:
          'Announcements in force for the caller (published, from their publication time until they expire)',
      },
      async (c) => {
        const now = c.get('deps').clock.now().toISOString();
        const platform = c.get('deps').store.platform({ userId: requirePrincipal(c).userId });
        const items = await platform.collection<Announcement>(MASTERDATA.announcements).find(
          {
            ...notDeleted,
            status: 'published',
            publishAt: { $lte: now },
            $or: [{ expireAt: { $exists: false } }, { expireAt: { $gt: now } }],
          },
          { sort: { publishAt: -1 }, limit: 50 },
        );
        return {
          items: items.map((a) => ({
            id: a._id,
            title: a.title,
            titleEn: a.titleEn,
            content: a.content,
            contentEn: a.contentEn,
            level: a.level,
            publishAt: a.publishAt,
          })),
        };
      },
    );

    router.route(
      {
        method: 'get',
        path: '/operator/menu-tree',
        summary:
          'The permission and menu tree (menus and buttons) with the module serving each and whether it runs',
        permission: 'holoxcontrol:systemConfig',
      },
      async () => {
        const mounted = mountedModules(deps);
        type Node = Omit<MenuItem, 'label'> & {
          labelZh: string;
          labelEn: string;
          available: boolean;
          children: Node[];
        };
        const nodes = new Map<string, Node>();
        for (const { label, ...item } of menuItems())
          nodes.set(item.id, {
            ...item,
            labelZh: label.zh,
            labelEn: label.en,
            available: mounted.has(item.module),
            children: [],
          });
        const roots: Node[] = [];
        for (const node of [...nodes.values()].sort((a, b) => a.order - b.order))
          (node.parent ? (nodes.get(node.parent)?.children ?? roots) : roots).push(node);
        return roots;
      },
    );

    entityRoutes<Regulator>(router, {
      path: '/operator/regulators',
      collection: MASTERDATA.regulators,
      scope: 'platform',
      entity: 'regulator',
      permission: 'holoxcontrol:regulatorDatum',
      sort: { country: 1, authorityCode: 1 },
      sortable: ['country', 'authorityCode'],
      exact: ['country', 'profile', 'status'],
      keywordFields: ['name', 'nameEn', 'authorityCode', 'receiverIdentifier'],
      notFound: 'masterdata.regulatorNotFound',
      unique: { fields: ['authorityCode'], message: 'masterdata.regulatorTaken' },
      check(input) {
        if (!isCountryCode(input.country))
          throw errors.badRequest('masterdata.unknownCountry', { country: input.country });
      },
    });

    entityRoutes<LineListingField>(router, {
      path: '/operator/line-listing-fields',
      collection: MASTERDATA.lineListingFields,
      scope: 'platform',
      entity: 'line-listing-field',
      permission: 'holoxcontrol:linelistingField',
      sort: { sort: 1, fieldKey: 1 },
      sortable: ['fieldKey', 'sort'],
      exact: ['status', 'valueType'],
      keywordFields: ['fieldKey', 'nameCn', 'nameEn', 'e2bId'],
      notFound: 'masterdata.lineListingFieldNotFound',
      unique: { fields: ['fieldKey'], message: 'masterdata.fieldKeyTaken' },
      check: assertDistinctNames,
    });
  },
});
