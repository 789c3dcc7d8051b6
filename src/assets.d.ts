// Files imported for embedding (`with { type: 'file' }`) resolve to a path.
declare module 'swagger-ui-dist/*' {
  const path: string
  export default path
}
declare module '*.sql' {
  const text: string
  export default text
}
