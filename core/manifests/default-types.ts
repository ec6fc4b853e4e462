/**
 * The types Airbyte's CDK gives a component written without `type`, by the field that holds it
 * (`<ParentType>.<field>`): a `requester` of a SimpleRetriever is an HttpRequester, and so on. These
 * are the facts of the CDK's ManifestComponentTransformer (v7.28.2), entries for components Plugboard
 * does not run included, so a manifest reads here as it reads there.
 */
export const DEFAULT_COMPONENT_TYPES: Readonly<Record<string, string>> = {
  'AddFields.fields': 'AddedFieldDefinition',
  'CompositeErrorHandler.error_handlers': 'DefaultErrorHandler',
  'ConfigComponentsResolver.components_mapping': 'ComponentMappingDefinition',
  'ConfigComponentsResolver.stream_config': 'StreamConfig',
  'CursorPagination.decoder': 'JsonDecoder',
  'CustomPartitionRouter.parent_stream_configs': 'ParentStreamConfig',
  'DatetimeBasedCursor.end_datetime': 'MinMaxDatetime',
  'DatetimeBasedCursor.end_time_option': 'RequestOption',
  'DatetimeBasedCursor.start_datetime': 'MinMaxDatetime',
  'DatetimeBasedCursor.start_time_option': 'RequestOption',
  'DeclarativeSource.check': 'CheckStream',
  'DeclarativeSource.spec': 'Spec',
  'DeclarativeSource.streams': 'DeclarativeStream',
  'DeclarativeStream.retriever': 'SimpleRetriever',
  'DeclarativeStream.schema_loader': 'JsonFileSchemaLoader',
  'DefaultErrorHandler.response_filters': 'HttpResponseFilter',
  'DefaultPaginator.decoder': 'JsonDecoder',
  'DefaultPaginator.page_size_option': 'RequestOption',
  'DpathExtractor.decoder': 'JsonDecoder',
  'DpathExtractor.record_expander': 'RecordExpander',
  // The CDK's own spelling (there is no ConfigComponentResolver component): such a stream fails there too.
  'DynamicDeclarativeStream.components_resolver': 'ConfigComponentResolver',
  'DynamicDeclarativeStream.stream_template': 'DeclarativeStream',
  'DynamicSchemaLoader.retriever': 'SimpleRetriever',
  'HttpComponentsResolver.components_mapping': 'ComponentMappingDefinition',
  'HttpComponentsResolver.retriever': 'SimpleRetriever',
  'HttpRequester.error_handler': 'DefaultErrorHandler',
  'ListPartitionRouter.request_option': 'RequestOption',
  'ParentStreamConfig.request_option': 'RequestOption',
  'ParentStreamConfig.stream': 'DeclarativeStream',
  'RecordSelector.extractor': 'DpathExtractor',
  'RecordSelector.record_filter': 'RecordFilter',
  'SchemaTypeIdentifier.types_map': 'TypesMap',
  'SimpleRetriever.paginator': 'NoPagination',
  'SimpleRetriever.record_selector': 'RecordSelector',
  'SimpleRetriever.requester': 'HttpRequester',
  'StreamGroup.streams': 'DeclarativeStream',
  'SubstreamPartitionRouter.parent_stream_configs': 'ParentStreamConfig',
};

/** The custom component type the CDK infers for a typeless mapping with a `class_name` (a Python class), by the field that holds it. */
export const CUSTOM_COMPONENT_TYPES: Readonly<Record<string, string>> = {
  'CompositeErrorHandler.backoff_strategies': 'CustomBackoffStrategy',
  'DeclarativeStream.retriever': 'CustomRetriever',
  'DeclarativeStream.transformations': 'CustomTransformation',
  'DefaultErrorHandler.backoff_strategies': 'CustomBackoffStrategy',
  'DefaultPaginator.pagination_strategy': 'CustomPaginationStrategy',
  'HttpRequester.authenticator': 'CustomAuthenticator',
  'HttpRequester.error_handler': 'CustomErrorHandler',
  'RecordSelector.extractor': 'CustomRecordExtractor',
  'SimpleRetriever.partition_router': 'CustomPartitionRouter',
};

/** The component type for a typeless mapping held by `fieldId` (`<ParentType>.<field>`), as the CDK infers it. */
export function defaultTypeFor(fieldId: string, hasClassName: boolean): string | undefined {
  const table = hasClassName ? CUSTOM_COMPONENT_TYPES : DEFAULT_COMPONENT_TYPES;
  return Object.hasOwn(table, fieldId) ? table[fieldId] : undefined;
}
