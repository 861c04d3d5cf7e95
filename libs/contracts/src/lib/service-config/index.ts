export * from './service-config.types';
export * from './names';
export * from './repository-paths';
export { isPlainObject, parseYamlWithLines, type LocatedYamlDocument, type ParseYamlResult } from './yaml-document';
export * from './validate-service-config';
