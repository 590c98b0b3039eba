// The secret detector lives in @assay/core (pure: the judge and workflow code use it too); this
// module keeps the package's own imports of it in one place.
export {
  ENV_NAME,
  findSecrets,
  keyTokens,
  maskKeys,
  namesSecret,
  namesSecretVariable,
  type SecretFinding,
} from '@assay/core';
