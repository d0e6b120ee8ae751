/** The fields of a v3 enrichment record, in the order ../shared/spec/enrichment-interface.md lists them. */
export const V3_FIELDS = [
  'brand_id',
  'brand_name',
  'brand_logo',
  'brand_name_ar',
  'brand_url',
  'category_id',
  'category_name',
  'category_name_ar',
  'sub_category_id',
  'sub_category_name',
  'sub_category_name_ar',
  'recurring',
  'ref_id',
] as const;
