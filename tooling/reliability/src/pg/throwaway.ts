// The throwaway server lives in @weft/tooling so that any workspace's tests can start one.
export { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from '@weft/tooling/throwaway-postgres'
