/**
 * A simulated EMR cluster for tests that mock the EMR client (aws-sdk-client-mock): it starts
 * at once, and every step submitted with RunJobFlow or AddJobFlowSteps has completed by the
 * first poll. Time is `at` (the backend prices the cluster from its timeline).
 */
import {
  AddJobFlowStepsCommand, DescribeClusterCommand, ListInstancesCommand, ListStepsCommand, RunJobFlowCommand, TerminateJobFlowsCommand,
  type EMRClientResolvedConfig, type ServiceInputTypes, type ServiceOutputTypes, type StepConfig,
} from '@aws-sdk/client-emr';
import type { AwsStub } from 'aws-sdk-client-mock';

type EmrMock = AwsStub<ServiceInputTypes, ServiceOutputTypes, EMRClientResolvedConfig>;

/** `onSteps` sees the names of each submission's steps. */
export function completeEveryStep(emrMock: EmrMock, at: Date, onSteps: (names: string[]) => void = () => {}): void {
  let steps: string[] = [];
  emrMock.on(RunJobFlowCommand).callsFake((input: { Steps: StepConfig[] }) => {
    steps = input.Steps.map((x) => x.Name ?? '');
    onSteps(steps);
    return { JobFlowId: 'j-SIM' };
  });
  emrMock.on(AddJobFlowStepsCommand).callsFake((input: { Steps: StepConfig[] }) => {
    steps = input.Steps.map((x) => x.Name ?? '');
    onSteps(steps);
    return { StepIds: steps.map((_, k) => `s-${k}`) };
  });
  emrMock.on(DescribeClusterCommand).resolves({ Cluster: { Id: 'j-SIM', ReleaseLabel: 'emr-7.14.0', Status: { State: 'RUNNING', Timeline: { CreationDateTime: at, ReadyDateTime: at } } } });
  emrMock.on(ListStepsCommand).callsFake(() => ({
    Steps: steps.map((Name, k) => ({ Id: `s-${k}`, Name, Status: { State: 'COMPLETED', Timeline: { CreationDateTime: at, StartDateTime: at, EndDateTime: at } } })).reverse(),
  }));
  emrMock.on(ListInstancesCommand).resolves({ Instances: [] });
  emrMock.on(TerminateJobFlowsCommand).resolves({});
}
