/**
 * E2B import (/reportmanagment/importReport): the import records, and for a record the
 * pre-processing comparison of its reports (?recordId=&index=).
 */
import { useSearchParams } from 'react-router-dom';
import { ComparisonView } from './ComparisonView';
import { ImportList } from './ImportList';

export default function ImportPage() {
  const [params] = useSearchParams();
  const recordId = params.get('recordId');
  if (recordId)
    return <ComparisonView kind="e2b" recordId={recordId} index={Number(params.get('index') ?? 0) || 0} />;
  return <ImportList />;
}
